// `vigil scan` and template signatures: the corpus's signed javascript templates are not refused, an
// unsigned copy is (and counted), -aut runs it anyway, --trust-certificate / NUCLEI_USER_CERTIFICATE add
// a signer, and -dut refuses every template no trusted key signed.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSigningKey, signTemplate, type SigningKey } from '../../helpers/template-signing.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const corpus = path.resolve(root, '../shared/corpus/nuclei-templates');

function vigil(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin/vigil.mjs'), 'scan', '-u', '127.0.0.1:9', '--timeout', '1', '--retries', '0', ...args],
      { cwd: root, timeout: 120_000, env: { ...process.env, NUCLEI_USER_CERTIFICATE: '', ...env } },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

const JS = `id: local-js
info: {name: local js, author: a, severity: info}
javascript:
  - code: |
      let m = require('nuclei/net');
      m.Open('tcp', Host + ':' + Port);
    args:
      Host: "{{Host}}"
      Port: "9"
    matchers:
      - type: dsl
        dsl: [success == true]
`;
const HTTP = `id: local-http
info: {name: local http, author: a, severity: info}
http:
  - method: GET
    path: ["{{BaseURL}}/"]
    matchers:
      - type: status
        status: [200]
`;

describe('vigil scan and template signatures', { timeout: 240_000 }, () => {
  let tmp: string;
  let key: SigningKey;
  beforeAll(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'vigil-sign-'));
    key = makeSigningKey('acme/templates');
    writeFileSync(path.join(tmp, 'operator.crt'), key.cert);
    writeFileSync(path.join(tmp, 'unsigned-js.yaml'), JS);
    writeFileSync(path.join(tmp, 'signed-js.yaml'), signTemplate(JS.replace('local-js', 'signed-js'), key));
    writeFileSync(path.join(tmp, 'unsigned-http.yaml'), HTTP);
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.runIf(existsSync(path.join(corpus, 'javascript')))(
    'the corpus javascript folder: no signed template is refused; an unsigned copy is, with the count',
    async () => {
      const dir = path.join(tmp, 'corpus-js');
      cpSync(path.join(corpus, 'javascript'), dir, { recursive: true });
      const redis = path.join(dir, 'default-logins/redis-default-logins.yaml');
      const text = readFileSync(redis, 'utf8');
      writeFileSync(
        path.join(dir, 'unsigned-copy.yaml'),
        text.slice(0, text.lastIndexOf('# digest: ')).replace('id: redis-default-logins', 'id: redis-copy'),
      );
      const r = await vigil(['-t', dir, '-rl', '0']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('[WRN] 1 unsigned template(s) refused: code and javascript templates run only');
    },
  );

  it('an unsigned javascript template is refused; -aut lets it through the signature check', async () => {
    const refused = await vigil(['-t', path.join(tmp, 'unsigned-js.yaml')]);
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stderr).toContain('1 unsigned template(s) refused');
    const allowed = await vigil(['-t', path.join(tmp, 'unsigned-js.yaml'), '-aut']);
    expect(allowed.stderr).not.toContain('refused');
  });

  it('an operator-signed template passes with --trust-certificate or NUCLEI_USER_CERTIFICATE, not without', async () => {
    const t = ['-t', path.join(tmp, 'signed-js.yaml')];
    expect((await vigil(t)).stderr).toContain('1 unsigned template(s) refused');
    expect((await vigil([...t, '--trust-certificate', path.join(tmp, 'operator.crt')])).stderr).not.toContain(
      'refused',
    );
    expect((await vigil(t, { NUCLEI_USER_CERTIFICATE: path.join(tmp, 'operator.crt') })).stderr).not.toContain(
      'refused',
    );
    expect((await vigil(t, { NUCLEI_USER_CERTIFICATE: key.cert })).stderr).not.toContain('refused');
  });

  it('-dut refuses an unsigned http template; a certificate that is not one stops the scan with the reason', async () => {
    const dut = await vigil(['-t', path.join(tmp, 'unsigned-http.yaml'), '-dut']);
    expect(dut.stderr).toContain('1 unsigned template(s) refused: no trusted key signed them (-dut)');
    const bad = await vigil([
      '-t',
      path.join(tmp, 'unsigned-http.yaml'),
      '--trust-certificate',
      path.join(tmp, 'unsigned-http.yaml'),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('template signing certificate 1: not a certificate');
  });
});
