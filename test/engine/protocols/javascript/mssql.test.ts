// nuclei/mssql as far as it can be tested here. Debian packages no SQL Server, so nothing below speaks
// TDS back: what is tested is a real server that is not SQL Server (the corpus's mssql templates must
// not match it, IsMssql is false, a login is false as nuclei's), a closed port (an error, not false),
// and the PRELOGIN parser on the answer layout MS-TDS documents. A successful login and a query's rows
// are untested (docs/protocols.md).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../../../src/engine/template/index.ts';
import { runScan, unsupportedReason } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import { runTemplateScript } from '../../../../src/engine/protocols/javascript/script.ts';
import { preloginVersion } from '../../../../src/engine/protocols/javascript/modules/mssql.ts';
import { startTcpServer } from '../../../helpers/targets.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';
import { freePort } from '../../../helpers/services.ts';

const CORPUS = path.join(sharedDir, 'corpus/nuclei-templates/javascript');

const script = (code: string, port: number) =>
  runTemplateScript(code, {
    args: { Host: '127.0.0.1', Port: String(port) },
    template: {},
    targetHost: '127.0.0.1',
    callTimeoutMs: 3000,
    timeoutMs: 20_000,
  });

describe('nuclei/mssql', () => {
  let other: Awaited<ReturnType<typeof startTcpServer>>;
  let otherPort = 0;
  let received = 0;
  beforeAll(async () => {
    // Answers like an SMTP server and then closes: not TDS.
    other = await startTcpServer((s) => {
      s.on('error', () => {});
      s.on('data', (d: Buffer) => {
        received += d.length;
        s.end('500 what?\r\n');
      });
    });
    otherPort = other.port;
  });
  afterAll(() => other?.close());

  it.skipIf(!hasShared('corpus/nuclei-templates'))(
    "the corpus's mssql-detect and mssql-default-logins do not match a server that is not SQL Server",
    async () => {
      const { templates } = await loadTemplates([
        path.join(CORPUS, 'detection/mssql-detect.yaml'),
        path.join(CORPUS, 'default-logins/mssql-default-logins.yaml'),
      ]);
      expect(templates).toHaveLength(2);
      for (const t of templates) expect(unsupportedReason(t)).toBeUndefined();
      const events: ResultEvent[] = [];
      const before = received;
      await runScan({
        targets: [`127.0.0.1:${otherPort}`],
        templates,
        rateLimit: 0,
        timeout: 3,
        retries: 0,
        onResult: (e) => events.push(e),
      });
      expect(events).toEqual([]);
      expect(received).toBeGreaterThan(before); // the PRELOGIN was sent
    },
  );

  it('IsMssql is false and Connect is false (a refused login, as nuclei) against a server that is not TDS', async () => {
    const is = await script(`require('nuclei/mssql').MSSQLClient().IsMssql(Host, Port)`, otherPort);
    expect(is).toMatchObject({ response: false, success: false });
    expect(is.error).toBeUndefined();
    const login = await script(`require('nuclei/mssql').MSSQLClient().Connect(Host, Port, 'sa', 'x')`, otherPort);
    expect(login.error).toBeUndefined();
    expect(login.response).toBe(false);
  });

  it('a closed port is an error for IsMssql, Connect and ExecuteQuery, not false', async () => {
    const closed = await freePort();
    for (const call of [
      `IsMssql(Host, Port)`,
      `Connect(Host, Port, 'sa', 'x')`,
      `ExecuteQuery(Host, Port, 'sa', 'x', 'master', 'select 1')`,
    ]) {
      const out = await script(`require('nuclei/mssql').MSSQLClient().${call}`, closed);
      expect(out.error, call).toMatch(/ECONNREFUSED|refused/);
    }
  });

  it('ExecuteQuery refuses a server that is not SQL Server before logging in', async () => {
    const out = await script(
      `require('nuclei/mssql').MSSQLClient().ExecuteQuery(Host, Port, 'sa', 'x', 'master', 'select 1')`,
      otherPort,
    );
    expect(out.error).toMatch(/not a mssql service/);
  });

  it("the PRELOGIN answer's version (MS-TDS 2.2.6.5 layout), and answers that are not one", () => {
    // VERSION 15.0.2000 (SQL Server 2019) at offset 11, ENCRYPTION off at 17, the terminator; then the data.
    const options = Buffer.from([0x00, 0x00, 11, 0x00, 0x06, 0x01, 0x00, 17, 0x00, 0x01, 0xff]);
    const data = Buffer.from([15, 0, 0x07, 0xd0, 0, 0, 0x00]);
    const payload = Buffer.concat([options, data]);
    const header = Buffer.from([0x04, 0x01, 0, 8 + payload.length, 0, 0, 0x01, 0x00]);
    expect(preloginVersion(Buffer.concat([header, payload]))).toBe('15.0.2000');
    expect(preloginVersion(Buffer.from('500 what?\r\n'))).toBeUndefined();
    const wrongLength = Buffer.concat([header, payload, Buffer.from([0])]);
    expect(preloginVersion(wrongLength)).toBeUndefined();
  });
});
