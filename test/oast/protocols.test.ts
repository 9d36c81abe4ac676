// {{interactsh-url}} beyond http: the corpus's network (tcp) and javascript templates for blind command
// injection, run against small vulnerable services on 127.0.0.1 that call back to Vigil's OAST server
// (resolving the name through its DNS listener, or fetching the URL from its HTTP listener). The
// findings carry the interaction; a service that calls nobody gives no finding after the cooldown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Resolver } from 'node:dns/promises';
import { startOast, type OastServer } from '../../src/oast/index.ts';
import { oastConfigFromEnv } from '../../src/oast/config.ts';
import { runScan, usesInteractsh, type ScanStats } from '../../src/engine/runner.ts';
import type { ResultEvent } from '../../src/engine/output/types.ts';
import type { Template } from '../../src/engine/template/types.ts';
import { corpusTemplate } from '../helpers/templates.ts';
import { hasShared } from '../helpers/shared.ts';

const DOMAIN = 'oast.vigil.test';
const haveCorpus = hasShared('corpus/nuclei-templates');
let oast: OastServer;
let resolver: Resolver;
const closers: (() => Promise<unknown>)[] = [];

/** Resolves a name through the OAST DNS listener (as the target's resolver would, NS-delegated). */
async function lookup(name: string): Promise<void> {
  await resolver.resolve4(name).catch(() => {});
}

/** Fetches http://<name>/ through the OAST HTTP listener's port, as curl would with the name resolved there. */
function fetchName(name: string, path = '/'): Promise<void> {
  return new Promise((resolve) => {
    http
      .get({
        host: '127.0.0.1',
        port: oast.ports.http,
        path,
        headers: { Host: name, 'User-Agent': 'curl/7.88.1', Accept: '*/*' },
      })
      .on('response', (r) => r.resume().on('end', resolve))
      .on('error', () => resolve());
  });
}

/**
 * A TCP service: `onData` sees all that came so far and may answer; resolves to host:port. `port` 0 picks
 * a free one; a port in use rejects.
 */
function tcpService(
  onData: (text: string, sock: net.Socket) => void,
  host = '127.0.0.1',
  port = 0,
  onConnect?: (sock: net.Socket) => void,
): Promise<string> {
  const s = net.createServer((sock) => {
    let text = '';
    onConnect?.(sock);
    sock.on('data', (c) => {
      text += c.toString('latin1');
      onData(text, sock);
    });
    sock.on('error', () => {});
  });
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => {
      closers.push(() => new Promise((r) => s.close(r)));
      resolve(`${host}:${(s.address() as AddressInfo).port}`);
    });
  });
}

async function scan(templates: Template[], target: string) {
  const events: ResultEvent[] = [];
  const notices: string[] = [];
  const stats: ScanStats = await runScan({
    templates,
    targets: [target],
    rateLimit: 0,
    timeout: 5,
    onResult: (ev) => events.push(ev),
    onNotice: (m) => notices.push(m),
    interactsh: { server: oast.localUrl, domain: DOMAIN, pollSeconds: 0.2, cooldownSeconds: 2 },
  });
  return { events, notices, stats };
}

const NAME = new RegExp(`[a-z0-9]{33}\\.${DOMAIN.replaceAll('.', '\\.')}`);

beforeAll(async () => {
  oast = await startOast(
    oastConfigFromEnv({
      VIGIL_OAST_DOMAIN: DOMAIN,
      VIGIL_OAST_IP: '127.0.0.1',
      VIGIL_OAST_HTTP: '127.0.0.1:0',
      VIGIL_OAST_DNS: '127.0.0.1:0',
    })!,
  );
  resolver = new Resolver();
  resolver.setServers([`127.0.0.1:${oast.ports.dns}`]);
});

afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
  await oast?.close();
});

describe.skipIf(!haveCorpus)('interactsh markers in network and javascript templates', () => {
  it('tcp: a ClockWatch-like service that runs the nslookup it is sent (DNS callback)', async () => {
    const looked: string[] = [];
    const target = await tcpService((text, sock) => {
      const m = /^C\+nslookup (\S+)/.exec(text);
      if (!m) return;
      looked.push(m[1]!);
      sock.write('OK-C\r\n');
      void lookup(m[1]!);
    });
    const { events, stats } = await scan(
      [corpusTemplate('network/vulnerabilities/clockwatch-enterprise-rce.yaml')],
      target,
    );
    expect(stats.requests).toBe(1);
    expect(looked).toHaveLength(1);
    expect(looked[0]).toMatch(NAME);
    expect(events).toHaveLength(1);
    const ev = events[0]!;
    expect(ev['template-id']).toBe('clockwatch-enterprise-rce');
    expect(ev.type).toBe('tcp');
    expect(ev['matched-at']).toBe(target);
    expect(ev.interaction?.protocol).toBe('dns');
    expect(`${ev.interaction?.['full-id']}.${DOMAIN}`).toBe(looked[0]);
    expect(ev.request).toBe(`C+nslookup ${looked[0]}`);
  });

  it('tcp: an Airflow-like Redis broker whose worker runs the queued curl (HTTP callback, CVE-2020-11981)', async (t) => {
    // The template also writes to {{Host}}:6379: the broker is on 127.0.0.2 and holds that port too, so
    // nothing else on this machine (a real Redis on 127.0.0.1:6379) gets the task.
    const broker = (text: string, sock: net.Socket) => {
      const m = /"body": "([A-Za-z0-9+/=]+)"/.exec(text);
      if (!m) return;
      sock.write(':1\r\n');
      const task = JSON.parse(Buffer.from(m[1]!, 'base64').toString('utf8')) as [string[][]];
      const [cmd, url] = task[0][0]!;
      if (cmd === 'curl') void fetchName(new URL(url!).host, '/airflow');
    };
    try {
      await tcpService(broker, '127.0.0.2', 6379);
    } catch (err) {
      t.skip(`127.0.0.2:6379 is not free here (${(err as Error).message})`);
    }
    const target = await tcpService(broker, '127.0.0.2');
    const { events } = await scan([corpusTemplate('network/cves/2020/CVE-2020-11981.yaml')], target);
    // One task per address the template writes to, each with its own name and callback.
    expect(events.map((e) => e['matched-at']).sort()).toEqual([target, '127.0.0.2:6379'].sort());
    for (const ev of events) {
      expect(ev['template-id']).toBe('CVE-2020-11981');
      expect(ev.interaction?.protocol).toBe('http');
      expect(ev.interaction?.['raw-request']).toMatch(/^GET \/airflow HTTP\/1\.1/);
      expect(ev.interaction?.['raw-request']).toContain('User-Agent: curl');
    }
    expect(events[0]!.interaction!['unique-id']).not.toBe(events[1]!.interaction!['unique-id']);
  });

  it('tcp: a service that answers but calls nobody gives no finding once the cooldown is over', async () => {
    const target = await tcpService((text, sock) => {
      if (text.includes('\n') || text.startsWith('C+')) sock.write('OK-C\r\n');
    });
    const before = Date.now();
    const { events, stats } = await scan(
      [corpusTemplate('network/vulnerabilities/clockwatch-enterprise-rce.yaml')],
      target,
    );
    expect(stats.requests).toBe(1);
    expect(stats.errors).toBe(0);
    expect(events).toEqual([]);
    // The scan polled through its cooldown before ending (an interaction would have had time to come).
    expect(Date.now() - before).toBeGreaterThanOrEqual(2000);
  });

  it('javascript: an OpenSMTPD-like server that runs its MAIL FROM through a shell (args, CVE-2020-7247)', async () => {
    // A bare SMTP dialogue: OpenSMTPD's bug accepted a sender no address parser would.
    const froms: string[] = [];
    let seen = 0;
    const target = await tcpService(
      (text, sock) => {
        const lines = text.split('\r\n');
        for (; seen < lines.length - 1; seen++) {
          const line = lines[seen]!;
          const from = /^MAIL FROM:<(.*)>/i.exec(line);
          if (from) {
            froms.push(from[1]!);
            // The bug: the sender is pasted into a shell command line; `;wget <name>;` resolves the name.
            const m = /;wget ([^;]+);/.exec(from[1]!);
            if (m) void lookup(m[1]!);
          }
          if (/^DATA/i.test(line)) sock.write('354 go on\r\n');
          else if (/^QUIT/i.test(line)) sock.end('221 bye\r\n');
          else if (/^(EHLO|HELO)/i.test(line)) sock.write('250 opensmtpd\r\n');
          else if (/^(MAIL|RCPT|RSET|NOOP)/i.test(line) || line === '.') sock.write('250 ok\r\n');
        }
      },
      '127.0.0.1',
      0,
      (sock) => sock.write('220 opensmtpd ESMTP\r\n'),
    );
    const { events } = await scan([corpusTemplate('javascript/cves/2020/CVE-2020-7247.yaml')], target);
    expect(froms).toHaveLength(1);
    expect(froms[0]).toMatch(new RegExp(`^;wget ${NAME.source};$`));
    expect(events).toHaveLength(1);
    const ev = events[0]!;
    expect(ev['template-id']).toBe('CVE-2020-7247');
    expect(ev.type).toBe('javascript');
    expect(ev.interaction?.protocol).toBe('dns');
    expect(froms[0]).toContain(ev.interaction!['full-id']);
  });

  it('javascript: an ActiveMQ-like broker that loads the Spring XML the URL names (DNS, CVE-2023-46604)', async () => {
    // The matcher compares the DNS question with the script's result (its random label): the interaction
    // is matched together with the script's own values.
    const target = await tcpService((text, sock) => {
      // The packet carries the URL of a Spring XML file: http://<name>/b64_body:<the file, base64>/.
      const m = /http:\/\/([^/]+)\/b64_body:([A-Za-z0-9+/=]+)\//.exec(text);
      if (!m) return;
      const xml = Buffer.from(m[2]!, 'base64').toString('utf8');
      const cmd = /curl http:\/\/\$\(echo ([a-z0-9]+)\)\.([^<\s]+)/.exec(xml);
      sock.end('\x00\x00\x00\x01');
      if (cmd) void lookup(`${cmd[1]}.${cmd[2]}`);
    });
    const { events } = await scan([corpusTemplate('javascript/cves/2023/CVE-2023-46604.yaml')], target);
    expect(events).toHaveLength(1);
    const ev = events[0]!;
    expect(ev['template-id']).toBe('CVE-2023-46604');
    expect(ev.interaction?.protocol).toBe('dns');
    expect(ev.interaction?.['full-id']).toMatch(/^[a-z0-9]+\.[a-z0-9]{33}$/);
  });

  it('a scan registers with the interactsh server for tcp and javascript templates too (not for others)', () => {
    expect(usesInteractsh(corpusTemplate('network/vulnerabilities/clockwatch-enterprise-rce.yaml'))).toBe(true);
    expect(usesInteractsh(corpusTemplate('javascript/cves/2021/CVE-2021-35394.yaml'))).toBe(true);
    expect(usesInteractsh(corpusTemplate('http/vulnerabilities/generic/oob-header-based-interaction.yaml'))).toBe(true);
    expect(usesInteractsh(corpusTemplate('network/detection/apache-activemq-detect.yaml'))).toBe(false);
  });
});
