// nuclei/postgres and nuclei/mysql with the corpus's templates against the machine's PostgreSQL
// (127.0.0.1:5432, trust logins) and MariaDB (127.0.0.1:3306, root without a password from 127.0.0.1).
// Skipped with a message when they are not running.
import net from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../../../src/engine/template/index.ts';
import { parseTemplate } from '../../../../src/engine/template/parse.ts';
import { unsupportedReason } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';
import { scanEvents } from './scan.ts';

const CORPUS = path.join(sharedDir, 'corpus/nuclei-templates/javascript');

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });
}
const [pgUp, myUp] = await Promise.all([listening(5432), listening(3306)]);
if (!pgUp) console.warn('skipping the postgres module tests: nothing listens on 127.0.0.1:5432');
if (!myUp) console.warn('skipping the mysql module tests: nothing listens on 127.0.0.1:3306');

async function corpus(...files: string[]): Promise<Template[]> {
  const { templates } = await loadTemplates(files.map((f) => path.join(CORPUS, f)));
  for (const t of templates) expect(unsupportedReason(t)).toBeUndefined();
  return templates;
}

const scan = (templates: Template[], target: string) => scanEvents(templates, target, { timeout: 5 });

function tpl(body: string, id: string): Template {
  const res = parseTemplate(`id: ${id}\ninfo: { name: ${id}, author: vigil, severity: info }\n${body}`, `${id}.yaml`);
  expect(res.issues).toEqual([]);
  return res.template!;
}

const ids = (events: ResultEvent[]) => [...new Set(events.map((e) => e['template-id']))].sort();

describe.skipIf(!pgUp || !hasShared('corpus/nuclei-templates'))('nuclei/postgres', () => {
  it('trust logins: the empty-password and version checks match, with the version and users extracted', async () => {
    const ts = await corpus(
      'misconfiguration/pgsql/pgsql-empty-password.yaml',
      'enumeration/pgsql/pgsql-version-detect.yaml',
      'enumeration/pgsql/pgsql-list-users.yaml',
    );
    const events = await scan(ts, '127.0.0.1:5432');
    expect(ids(events)).toEqual(['pgsql-empty-password', 'pgsql-list-users', 'pgsql-version-detect']);
    const by = new Map(events.map((e) => [e['template-id'], e]));
    expect(by.get('pgsql-version-detect')!['extracted-results']![0]).toMatch(/^PostgreSQL \d+/);
    expect(by.get('pgsql-list-users')!['extracted-results']).toContain('postgres');
  });

  it('a port that is not PostgreSQL does not match', async () => {
    const s = net.createServer((c) => {
      c.on('error', () => {});
      c.end('SSH-2.0-nope\r\n');
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const port = (s.address() as net.AddressInfo).port;
    try {
      const ts = await corpus('misconfiguration/pgsql/pgsql-empty-password.yaml');
      expect(await scan(ts, `127.0.0.1:${port}`)).toEqual([]);
    } finally {
      s.close();
    }
  });
});

describe.skipIf(!myUp || !hasShared('corpus/nuclei-templates'))('nuclei/mysql', () => {
  let rootOk = false;
  beforeAll(async () => {
    const t = tpl(
      `javascript:\n  - code: |\n      require('nuclei/mysql').MySQLClient().Connect(Host, Port, 'root', '')\n    args: { Host: "{{Host}}", Port: "3306" }\n    matchers:\n      - type: dsl\n        dsl: ["response == true"]\n`,
      'mysql-root-probe',
    );
    rootOk = (await scan([t], '127.0.0.1:3306')).length === 1;
    if (!rootOk) console.warn('the MariaDB here does not let root in without a password: the login checks are not run');
  });

  it('fingerprints the server (version extracted)', async () => {
    const events = await scan(await corpus('enumeration/mysql/mysql-info.yaml'), '127.0.0.1:3306');
    expect(events).toHaveLength(1);
    expect(events[0]!['extracted-results']!.join('\n')).toMatch(/Version: \d+\.\d+/);
  });

  it('root without a password: a query extracts the databases; the corpus default passwords and a wrong one do not get in', async ({
    skip,
  }) => {
    if (!rootOk) skip();
    // The corpus check tries root/admin/mysql/test with those passwords: none is root's (empty) password.
    expect(await scan(await corpus('enumeration/mysql/mysql-show-databases.yaml'), '127.0.0.1:3306')).toEqual([]);
    const q = tpl(
      `javascript:\n  - code: |\n      Export(require('nuclei/mysql').MySQLClient().ExecuteQuery(Host, Port, 'root', '', 'show databases;'))\n    args: { Host: "{{Host}}", Port: "3306" }\n    extractors:\n      - type: json\n        json: ['.Rows[] | .Database']\n`,
      'mysql-query',
    );
    const events = await scan([q], '127.0.0.1:3306');
    expect(events).toHaveLength(1);
    expect(events[0]!['extracted-results']).toContain('information_schema');
    const wrong = tpl(
      `javascript:\n  - code: |\n      let r; try { r = require('nuclei/mysql').MySQLClient().Connect(Host, Port, 'root', 'vigil-wrong-pw'); } catch (e) { r = 'denied: ' + e.message; }\n      r\n    args: { Host: "{{Host}}", Port: "3306" }\n    matchers:\n      - type: word\n        words: ["denied: Access denied"]\n`,
      'mysql-wrong',
    );
    expect(await scan([wrong], '127.0.0.1:3306')).toHaveLength(1);
  });
});
