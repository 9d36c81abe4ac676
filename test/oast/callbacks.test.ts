// Out-of-band findings end to end: small vulnerable apps on 127.0.0.1 call back to Vigil's OAST server
// (HTTP, DNS through the OAST DNS listener, SMTP), the corpus's templates for those bugs run through the
// engine with its interactsh client, and the findings carry the interaction that proved them. A target
// that calls nobody gives no finding once the scan's cooldown is over.
//
// The apps resolve OAST names through the OAST DNS listener (on a high port) and reach its listeners on
// their test ports: on a real network the names resolve to the public address and the ports are 80 and 25.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { Resolver } from 'node:dns/promises';
import net, { type AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { startOast, type OastServer, type Interaction } from '../../src/oast/index.ts';
import { oastConfigFromEnv } from '../../src/oast/config.ts';
import { runScan, type ScanStats } from '../../src/engine/runner.ts';
import type { ResultEvent } from '../../src/engine/output/types.ts';
import type { Template } from '../../src/engine/template/types.ts';
import { corpusTemplate } from '../helpers/templates.ts';
import { hasShared } from '../helpers/shared.ts';

const DOMAIN = 'oast.vigil.test';
const haveCorpus = hasShared('corpus/nuclei-templates');
let oast: OastServer;
const received: Interaction[] = [];
const apps: http.Server[] = [];
let resolver: Resolver;

function serve(handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  apps.push(s);
  return new Promise((resolve) =>
    s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
  );
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let b = '';
    req.on('data', (c) => (b += c));
    req.on('end', () => resolve(b));
  });
}

/** Resolves a name through the OAST DNS listener; undefined when it does not resolve there. */
async function lookup(name: string): Promise<string | undefined> {
  try {
    return (await resolver.resolve4(name))[0];
  } catch {
    return undefined;
  }
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

beforeAll(async () => {
  oast = await startOast(
    oastConfigFromEnv({
      VIGIL_OAST_DOMAIN: DOMAIN,
      VIGIL_OAST_IP: '127.0.0.1',
      VIGIL_OAST_HTTP: '127.0.0.1:0',
      VIGIL_OAST_DNS: '127.0.0.1:0',
      VIGIL_OAST_SMTP: '127.0.0.1:0',
      VIGIL_OAST_LDAP: '127.0.0.1:0',
    })!,
    (i) => received.push(i),
  );
  resolver = new Resolver();
  resolver.setServers([`127.0.0.1:${oast.ports.dns}`]);
});

afterAll(async () => {
  await Promise.all(apps.map((s) => new Promise((r) => s.close(r))));
  await oast?.close();
});

describe.skipIf(!haveCorpus)('out-of-band findings with the corpus templates', () => {
  it('finds a server that fetches the URL of its Referer header (HTTP callback)', async () => {
    // Blind SSRF through an egress route: the app sends the request for the Referer's URL to the route
    // (here the OAST HTTP listener's port) with the URL's host, as a forward proxy would.
    const target = await serve((req, res) => {
      const ref = req.headers.referer;
      res.end('ok');
      if (!ref) return;
      const u = new URL(ref);
      http
        .get({ host: '127.0.0.1', port: oast.ports.http, path: u.pathname, headers: { host: u.host } })
        .on('error', () => {});
    });
    const { events, stats } = await scan(
      [corpusTemplate('http/vulnerabilities/generic/oob-header-based-interaction.yaml')],
      target,
    );
    expect(stats.requests).toBe(1);
    expect(events).toHaveLength(1);
    const ev = events[0]!;
    expect(ev['template-id']).toBe('oob-header-based-interaction');
    expect(ev['matcher-name']).toBe('http');
    expect(ev.interaction?.protocol).toBe('http');
    expect(ev.interaction?.['remote-address']).toBe('127.0.0.1');
    expect(ev.interaction?.['raw-request']).toMatch(/^GET \/ref HTTP\/1\.1/);
    // The name the app called is the one Vigil put in this request's Referer.
    expect(ev.request).toContain(`Referer: http://${ev.interaction!['unique-id']}.${DOMAIN}/ref`);
  });

  it('finds a server that resolves the name in its X-Forwarded-For header (DNS callback)', async () => {
    const target = await serve(async (req, res) => {
      const xff = String(req.headers['x-forwarded-for'] ?? '');
      await lookup(xff.split(',')[0]!.trim());
      res.end('logged');
    });
    const { events } = await scan(
      [corpusTemplate('http/vulnerabilities/generic/oob-header-based-interaction.yaml')],
      target,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!['matcher-name']).toBe('dns');
    expect(events[0]!.interaction?.protocol).toBe('dns');
    expect(events[0]!.interaction?.['q-type']).toBe('A');
    expect(events[0]!.interaction?.['full-id']).toMatch(/^spoofed\.[a-z0-9]{33}$/);
  });

  it('finds a GitLab-like password reset that mails an unverified address (SMTP callback, CVE-2023-7028)', async () => {
    const target = await serve(async (req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (req.method === 'GET' && url.pathname === '/users/sign_in') {
        res.end('<form><input type="hidden" name="authenticity_token" value="tok-123_abc" /></form>');
        return;
      }
      if (req.method === 'POST' && url.pathname === '/users/password') {
        const form = new URLSearchParams(await readBody(req));
        if (form.get('authenticity_token') !== 'tok-123_abc') {
          res.statusCode = 422;
          return res.end('bad token');
        }
        // The bug: every address in user[email][] gets the reset link, verified or not.
        for (const to of form.getAll('user[email][]')) {
          const domain = to.split('@')[1] ?? '';
          const mx = await lookup(domain);
          if (!mx) continue;
          const mail = nodemailer.createTransport({ host: mx, port: oast.ports.smtp, secure: false, ignoreTLS: true });
          await mail
            .sendMail({ from: 'gitlab@target.test', to, subject: 'Reset password instructions', text: 'reset link' })
            .catch(() => {});
        }
        res.end('If your email address exists in our database, you will receive a password recovery link.');
        return;
      }
      res.statusCode = 404;
      res.end();
    });
    const { events } = await scan([corpusTemplate('http/cves/2023/CVE-2023-7028.yaml')], target);
    expect(events.length).toBeGreaterThanOrEqual(1);
    const ev = events[0]!;
    expect(ev['template-id']).toBe('CVE-2023-7028');
    expect(ev.interaction?.protocol).toBe('smtp');
    expect(ev.interaction?.['smtp-from']).toBe('gitlab@target.test');
    expect(ev.interaction?.['raw-request']).toContain('reset link');
    // The extractor names the account whose reset went astray.
    expect(ev['extracted-results']?.[0]).toMatch(/@/);
  });

  it('finds a Log4Shell-like app that looks up ${jndi:ldap://...} in its headers (CVE-2021-44228, DNS)', async () => {
    // The app "logs" the URL and headers through a lookup-evaluating logger: ${:-x} is x, ${hostName} the
    // host's name; a jndi:ldap lookup resolves the server name, then opens an LDAP connection to it.
    const ldapSearch = (base: string) => {
      const str = (t: number, v: Buffer) => Buffer.concat([Buffer.from([t, v.length]), v]);
      const search = str(
        0x63,
        Buffer.concat([
          str(0x04, Buffer.from(base)),
          Buffer.from([0x0a, 1, 0, 0x0a, 1, 0, 2, 1, 0, 2, 1, 0, 1, 1, 0]),
          str(0x87, Buffer.from('objectClass')),
          Buffer.from([0x30, 0]),
        ]),
      );
      return str(0x30, Buffer.concat([Buffer.from([2, 1, 1]), search]));
    };
    const lookups: string[] = [];
    const target = await serve(async (req, res) => {
      const logged = [decodeURIComponent(req.url ?? ''), ...Object.values(req.headers).flat()].join('\n');
      const evaluated = logged.replace(/\$\{:-([^}]*)\}/g, '$1').replaceAll('${hostName}', 'vulnhost');
      for (const m of evaluated.matchAll(/\$\{jndi:ldap:\/\/([^/}]+)(?:\/([^}]*))?\}/g)) {
        lookups.push(m[1]!);
        const ip = await lookup(m[1]!);
        if (!ip) continue;
        await new Promise<void>((done) => {
          const s = net.connect(oast.ports.ldap!, ip, () => s.end(ldapSearch(m[2] ?? '')));
          s.resume(); // read the answer, so the socket ends and closes
          s.on('close', () => done());
          s.on('error', () => done());
        });
      }
      res.end('logged');
    });
    const { events } = await scan([corpusTemplate('http/cves/2021/CVE-2021-44228.yaml')], target);
    expect(lookups.length).toBeGreaterThan(0);
    expect(events).toHaveLength(1);
    const ev = events[0]!;
    expect(ev['template-id']).toBe('CVE-2021-44228');
    expect(ev.interaction?.protocol).toBe('dns');
    // The extractors read the lookup's name back from the DNS question (the host name it leaked).
    expect(ev['extracted-results']!.some((x) => x.includes('vulnhost'))).toBe(true);
    expect(ev.interaction?.['raw-request']).toMatch(/;\d{6}\.vulnhost\.(uri|accept)\./);
  });

  it('gives no finding for a target that calls nobody, once the cooldown is over', async () => {
    const target = await serve((_req, res) => res.end('nothing to see'));
    const before = received.length;
    const { events, stats } = await scan(
      [
        corpusTemplate('http/vulnerabilities/generic/oob-header-based-interaction.yaml'),
        corpusTemplate('http/miscellaneous/external-service-interaction.yaml'),
      ],
      target,
    );
    expect(stats.requests).toBe(2);
    expect(stats.errors).toBe(0);
    expect(events).toEqual([]);
    // Nothing reached the OAST server for this scan either (the scan ended after its cooldown's polls).
    expect(received.length).toBe(before);
  });

  it('without an interactsh server (-ni) the markers stay unfilled and the request is not sent', async () => {
    const target = await serve((_req, res) => res.end('x'));
    const events: ResultEvent[] = [];
    const errors: (string | undefined)[] = [];
    const stats = await runScan({
      templates: [corpusTemplate('http/vulnerabilities/generic/oob-header-based-interaction.yaml')],
      targets: [target],
      onResult: (ev) => events.push(ev),
      onAttempt: (a) => errors.push(a.error),
    });
    expect(stats.requests).toBe(0);
    expect(events).toEqual([]);
    expect(errors).toEqual([expect.stringMatching(/unresolved variables: interactsh-url/)]);
  });
});
