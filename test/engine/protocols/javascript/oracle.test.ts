// nuclei/oracle as far as it can be tested here. Debian packages no Oracle listener: what is tested is
// the probe reaching a real server that is not Oracle (the corpus's oracle templates must not match,
// IsOracle is { IsOracle: false }, not an error), the probe's CONNECT packet and the banner read from
// a REFUSE laid out as TNS documents it, and the client calls that are refused. A real listener's
// answer is untested (docs/protocols.md).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../../../src/engine/template/index.ts';
import { runScan, unsupportedReason } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import { runTemplateScript } from '../../../../src/engine/protocols/javascript/script.ts';
import { tnsBanner, tnsConnect } from '../../../../src/engine/protocols/javascript/modules/oracle.ts';
import { startTcpServer } from '../../../helpers/targets.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';

const CORPUS = path.join(sharedDir, 'corpus/nuclei-templates/javascript');

const script = (code: string, port: number) =>
  runTemplateScript(code, {
    args: { Host: '127.0.0.1', Port: String(port) },
    template: {},
    targetHost: '127.0.0.1',
    callTimeoutMs: 3000,
    timeoutMs: 20_000,
  });

describe('nuclei/oracle', () => {
  let other: Awaited<ReturnType<typeof startTcpServer>>;
  let port = 0;
  const seen: Buffer[] = [];
  beforeAll(async () => {
    other = await startTcpServer((s) => {
      s.on('error', () => {});
      s.on('data', (d: Buffer) => {
        seen.push(d);
        s.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      });
    });
    port = other.port;
  });
  afterAll(() => other?.close());

  it.skipIf(!hasShared('corpus/nuclei-templates'))(
    "the corpus's oracle-detect and oracle-tns-listener do not match a server that is not Oracle",
    async () => {
      const { templates } = await loadTemplates([
        path.join(CORPUS, 'detection/oracle-detect.yaml'),
        path.join(CORPUS, 'detection/oracle-tns-listener.yaml'),
      ]);
      expect(templates).toHaveLength(2);
      for (const t of templates) expect(unsupportedReason(t)).toBeUndefined();
      const events: ResultEvent[] = [];
      await runScan({
        targets: [`127.0.0.1:${port}`],
        templates,
        rateLimit: 0,
        timeout: 3,
        retries: 0,
        onResult: (e) => events.push(e),
      });
      expect(events).toEqual([]);
    },
  );

  it('IsOracle answers { IsOracle: false } there, after sending a TNS CONNECT naming the address connected to', async () => {
    seen.length = 0;
    for (const code of [
      `to_json(require('nuclei/oracle').IsOracle(Host, Port))`,
      `to_json(require('nuclei/oracle').OracleClient().IsOracle(Host, Port))`,
    ]) {
      const out = await script(code, port);
      expect(out.error).toBeUndefined();
      expect(JSON.parse(String(out.response))).toEqual({ IsOracle: false, Banner: '' });
    }
    const sent = seen[0]!;
    expect(sent[4]).toBe(1); // CONNECT
    expect(sent.readUInt16BE(0)).toBe(sent.length);
    expect(sent.subarray(58).toString('latin1')).toContain(`(HOST=127.0.0.1)(PORT=${port})`);
  });

  it("a listener's REFUSE gives fingerprintx's banner text; other answers none", () => {
    const desc = '(DESCRIPTION=(TMP=)(VSNNUM=186647040)(ERR=12514)(ERROR_STACK=(ERROR=(CODE=12514)(EMFI=4))))';
    const refuse = Buffer.alloc(12);
    refuse.writeUInt16BE(12 + desc.length, 0);
    refuse[4] = 4; // REFUSE
    refuse.writeUInt16BE(desc.length, 10);
    const banner = tnsBanner(Buffer.concat([refuse, Buffer.from(desc)]));
    // 186647040 = 0x0B200200: 11.2.0.2.0
    expect(banner).toBe('map[ERROR_CODE:12514 Oracle TNS Listener Version:11.2.0.2.0 VSNNUM:186647040]');
    expect(/Oracle TNS Listener Version:([0-9.]+)/.exec(banner!)![1]).toBe('11.2.0.2.0');
    const accept = Buffer.concat([refuse, Buffer.from(desc)]);
    accept[4] = 6; // DATA: not an answer to the probe
    expect(tnsBanner(accept)).toBeUndefined();
    expect(tnsBanner(tnsConnect('(DESCRIPTION=)'))).toBeUndefined();
  });

  it('logging in is refused with a message saying so', async () => {
    const out = await script(
      `require('nuclei/oracle').OracleClient().Connect(Host, Port, 'XE', 'system', 'oracle')`,
      port,
    );
    expect(out.error).toMatch(/not supported on this platform/);
  });
});
