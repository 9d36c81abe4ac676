// A new scan's targets file, read as the console reads it (web/src/components/targetsFile.ts, csv-parse):
// plain lines, a CSV column chosen by its header, comments, quotes, duplicates, and each entry that is not a
// target named by its line in the file.
import { describe, expect, it } from 'vitest';
import { parseTargetsFile } from '../../web/src/components/targetsFile.ts';

describe('targets file', () => {
  it('reads one target per line', async () => {
    expect(await parseTargetsFile('a.txt', 'http://a.example\n10.0.0.0/24\n\nb.example:8443\n')).toEqual({
      name: 'a.txt',
      targets: ['http://a.example', '10.0.0.0/24', 'b.example:8443'],
      problems: [],
    });
  });

  it('takes the CSV column headed like a target, keeps URL fragments, drops comments and duplicates', async () => {
    const csv =
      'notes,URL\none,http://127.0.0.1:8080/#x\n# a comment line\ntwo,example.com\n"three, quoted",example.com\n';
    expect(await parseTargetsFile('a.csv', csv)).toEqual({
      name: 'a.csv',
      targets: ['http://127.0.0.1:8080/#x', 'example.com'],
      problems: [],
    });
  });

  it('names the line of each entry that is not a target, and an empty file', async () => {
    const r = await parseTargetsFile('b.txt', 'ok.example\n# skip\n\nnot a target\n<script>\n');
    expect(r.targets).toEqual(['ok.example']);
    expect(r.problems).toEqual([
      'line 4: "not a target" is not a URL, host, address or range',
      'line 5: "<script>" is not a URL, host, address or range',
    ]);
    expect((await parseTargetsFile('c.txt', '\n# only a comment\n')).problems).toEqual(['the file has no targets']);
  });
});
