// Discovery against real services on loopback addresses: an authoritative DNS server (a zone with a
// wildcard and a CNAME), an HTTP server and an HTTPS server with its own certificate.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  probeHttp,
  runDiscovery,
  checkConfig,
  Resolver,
  parseResolver,
  parsePorts,
  scanPorts,
  faviconHash,
  TOP_100,
  passiveSubdomains,
  parseProviderConfig,
} from '../../src/discovery/index.ts';
import { Throttle } from '../../src/discovery/pool.ts';
import { DEFAULT_LIMITS, type DiscoveryEvent } from '../../src/discovery/types.ts';
import { startDnsServer, type DnsTestServer } from '../helpers/dns-server.ts';
import { startHttpServer, startHttpsServer, type TestServer } from '../helpers/targets.ts';
import { makeCert } from '../helpers/certs.ts';

// 1,280 bytes 0..255 repeated: its Shodan favicon hash, computed with Python's mmh3 5.3.0 as
// mmh3.hash(base64.encodebytes(data)) (a known answer of the reference implementation).
const ICON = Buffer.from(Array.from({ length: 1280 }, (_, i) => i % 256));
const ICON_SHODAN_HASH = 1907799943;

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('discovery', () => {
  let dns: DnsTestServer;
  let web: TestServer;
  let tlsWeb: TestServer;
  let closed: number;

  beforeAll(async () => {
    web = await startHttpServer(
      (req, res) => {
        res.setHeader('Server', 'nginx/1.25.3');
        res.setHeader('X-Powered-By', 'PHP/8.2.1');
        if (req.url === '/favicon.ico') return res.end(ICON);
        if (req.url === '/old') {
          res.statusCode = 301;
          res.setHeader('Location', '/');
          return res.end();
        }
        res.end('<html><head><title>App &amp; Home</title></head><body>hello</body></html>');
      },
      { host: '127.0.0.12' },
    );
    tlsWeb = await startHttpsServer(
      (_req, res) => {
        res.statusCode = 302;
        res.setHeader('Location', '/login');
        if (_req.url === '/login') {
          res.statusCode = 200;
          res.removeHeader('Location');
          return res.end('<title>API login</title>');
        }
        res.end();
      },
      {
        host: '127.0.0.13',
        cert: makeCert({
          subject: '/CN=api.example.test/O=Vigil Test',
          dns: ['api.example.test', 'www.api.example.test'],
        }),
      },
    );
    closed = await freePort();
    dns = await startDnsServer({
      records: {
        'app.example.test': [{ type: 'A', data: '127.0.0.12' }],
        'www.example.test': [{ type: 'CNAME', data: 'app.example.test' }],
        'api.example.test': [{ type: 'A', data: '127.0.0.13' }],
        '*.example.test': [{ type: 'A', data: '127.0.0.19' }],
        'v6.example.test': [
          { type: 'AAAA', data: '::1' },
          { type: 'A', data: '127.0.0.20' },
        ],
        // 60 addresses: more than a 512-byte UDP answer holds, so the client must ask again over TCP.
        'many.example.test': Array.from({ length: 60 }, (_, i) => ({ type: 'A', data: `127.0.1.${i + 1}` })),
      },
    });
  });
  afterAll(async () => {
    await Promise.all([web?.close(), tlsWeb?.close(), dns?.close()]);
  });

  it('resolves A, AAAA and CNAME chains through a configured resolver', async () => {
    const r = new Resolver([parseResolver(dns.resolver)], 1000);
    expect(await r.resolve('www.example.test')).toEqual({
      status: 'ok',
      a: ['127.0.0.12'],
      aaaa: [],
      cname: ['app.example.test'],
    });
    expect((await r.resolve('example.test')).status).toBe('nxdomain');
    expect((await r.resolve('anything.example.test')).a).toEqual(['127.0.0.19']);
    expect(await r.resolve('v6.example.test')).toEqual({ status: 'ok', a: ['127.0.0.20'], aaaa: ['::1'], cname: [] });
    expect((await r.resolve('many.example.test')).a).toHaveLength(60);
    // The UDP answer came back truncated: the same question was asked again over TCP.
    expect(
      dns.queries
        .filter((q) => q.questions?.[0]?.name === 'many.example.test' && q.questions[0].type === 'A')
        .map((q) => q.transport),
    ).toEqual(['udp', 'tcp']);
    const dead = new Resolver([{ host: '127.0.0.1', port: closed }], 200, 0);
    expect((await dead.resolve('app.example.test')).status).toBe('error');
  });

  it('finds hosts, ports, web and TLS facts, dropping wildcard answers', async () => {
    const events: DiscoveryEvent[] = [];
    const assets = await runDiscovery(
      {
        roots: ['example.test'],
        steps: ['dns_resolve', 'dns_bruteforce', 'port_scan', 'http_probe', 'tls_scan'],
        resolvers: [dns.resolver],
        wordlist: ['app', 'www', 'api', 'mail', 'nothere'],
        ports: `${web.port},${tlsWeb.port},${closed}`,
        limits: { timeoutMs: 2000 },
      },
      (e) => events.push(e),
    );

    const byKey = new Map(assets.map((a) => [`${a.host}${a.port ? ':' + a.port : ''}`, a]));
    expect([...byKey.keys()].sort()).toEqual(
      [
        'api.example.test',
        `api.example.test:${tlsWeb.port}`,
        'app.example.test',
        `app.example.test:${web.port}`,
        'www.example.test',
        `www.example.test:${web.port}`,
      ].sort(),
    );
    expect(events.some((e) => e.type === 'notice' && e.message.includes('wildcard under example.test'))).toBe(true);

    const app = byKey.get(`app.example.test:${web.port}`)!;
    expect(app.ip).toEqual(['127.0.0.12']);
    expect(app.http).toMatchObject({
      scheme: 'http',
      status_code: 200,
      title: 'App & Home',
      webserver: 'nginx/1.25.3',
      favicon: String(ICON_SHODAN_HASH),
      chain_status_codes: [200],
    });
    expect(app.http!.technologies).toEqual(expect.arrayContaining(['nginx', 'PHP']));
    expect(app.http!.content_length).toBe(
      Buffer.byteLength('<html><head><title>App &amp; Home</title></head><body>hello</body></html>'),
    );
    expect(byKey.get(`www.example.test:${web.port}`)!.cname).toEqual(['app.example.test']);
    expect(web.requests.some((r) => r.headers.host === `www.example.test:${web.port}`)).toBe(true);

    const api = byKey.get(`api.example.test:${tlsWeb.port}`)!;
    expect(api.http).toMatchObject({
      scheme: 'https',
      status_code: 200,
      title: 'API login',
      chain_status_codes: [302, 200],
    });
    expect(api.http!.redirect_location).toBe(`https://api.example.test:${tlsWeb.port}/login`);
    expect(api.http!.tls_names.sort()).toEqual(['api.example.test', 'www.api.example.test']);
    expect(api.tls).toMatchObject({
      subject_cn: 'api.example.test',
      subject_org: 'Vigil Test',
      issuer_cn: 'api.example.test',
      expired: false,
      self_signed: true,
      mismatched: false,
    });
    expect(api.tls!.subject_an.sort()).toEqual(['api.example.test', 'www.api.example.test']);
    expect(api.tls!.versions).toContain(api.tls!.version);
    expect(new Date(api.tls!.not_after!).getTime()).toBeGreaterThan(Date.now() + 20 * 86400_000);
    expect(byKey.get(`app.example.test:${web.port}`)!.tls).toBeUndefined();
  });

  it('honours exclusions and IP / CIDR roots', async () => {
    const assets = await runDiscovery({
      roots: ['127.0.0.12/31', 'example.test'],
      steps: ['dns_bruteforce', 'port_scan'],
      resolvers: [dns.resolver],
      wordlist: ['app', 'api'],
      exclusions: ['api.example.test', '127.0.0.13'],
      ports: `${web.port},${tlsWeb.port}`,
    });
    const keys = assets.map((a) => `${a.host}${a.port ? ':' + a.port : ''}`).sort();
    expect(keys).toEqual([`127.0.0.12:${web.port}`, 'app.example.test', `app.example.test:${web.port}`].sort());
  });

  it('without port_scan, only ports that answer the probes become assets; dns_resolve alone lists names', async () => {
    const probed = await runDiscovery({
      roots: ['127.0.0.12', '127.0.0.13'],
      steps: ['http_probe'],
      ports: `${web.port},${closed}`,
    });
    expect(probed.map((a) => `${a.host}:${a.port}`)).toEqual([`127.0.0.12:${web.port}`]);
    const names = await runDiscovery({
      roots: ['example.test'],
      steps: ['dns_resolve', 'dns_bruteforce'],
      resolvers: [dns.resolver],
      wordlist: ['app', 'www'],
      ports: String(web.port),
    });
    expect(names.map((a) => `${a.host}${a.port ? ':' + a.port : ''}`).sort()).toEqual([
      'app.example.test',
      'www.example.test',
    ]);
  });

  it('never touches what the deny hook names', async () => {
    const assets = await runDiscovery({
      roots: ['127.0.0.12/31'],
      steps: ['port_scan', 'http_probe'],
      ports: `${web.port},${tlsWeb.port}`,
      deny: (h, port) => h === '127.0.0.13' || (h === '127.0.0.12' && port === web.port),
    });
    expect(assets).toEqual([]);
  });

  it("stops probing at the run's budget of address-port pairs (limits.maxProbes), with a notice", async () => {
    const events: DiscoveryEvent[] = [];
    const assets = await runDiscovery(
      { roots: ['127.0.0.12/30'], steps: ['port_scan'], ports: `${web.port},${tlsWeb.port}`, limits: { maxProbes: 5 } },
      (e) => events.push(e),
    );
    expect(assets.map((a) => `${a.host}:${a.port}`).sort()).toEqual(
      [`127.0.0.12:${web.port}`, `127.0.0.13:${tlsWeb.port}`].sort(),
    );
    const notices = events.filter((e) => e.type === 'notice').map((e) => (e as { message: string }).message);
    expect(notices).toEqual([
      expect.stringMatching(/^stopped at 2 addresses x 2 ports, the run's limit of 5 address-port pairs/),
    ]);
    const progress = events.filter((e) => e.type === 'progress');
    expect(progress.at(-1)).toMatchObject({ step: 'port_scan', done: 4, total: 4 });
  });

  it('a server that drips its answer forever does not hold a probe past its deadline', async () => {
    const drip = await startHttpServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.write('<title>drip</title>');
      const timer = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(timer));
      return new Promise(() => {});
    });
    try {
      const started = Date.now();
      const info = await probeHttp('127.0.0.1', '127.0.0.1', drip.port, {
        timeoutMs: 300,
        followRedirects: true,
        lookup: async () => undefined,
      });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(info?.title).toBe('drip');
    } finally {
      await drip.close();
    }
  });

  it('scans ports with bounded concurrency and finds exactly the open ones', async () => {
    const ports = [web.port, closed, tlsWeb.port];
    const open = await scanPorts(
      new Throttle({ ...DEFAULT_LIMITS, concurrency: 2 }),
      ['127.0.0.12', '127.0.0.13'],
      ports,
      () => {},
    );
    expect(Object.fromEntries(open)).toEqual({ '127.0.0.12': [web.port], '127.0.0.13': [tlsWeb.port] });
  });

  it('checks configurations: ports, steps, roots, resolvers', () => {
    expect(parsePorts(undefined)).toEqual(TOP_100);
    expect(parsePorts('80, 443,8000-8002')).toEqual([80, 443, 8000, 8001, 8002]);
    expect(() => parsePorts('70000')).toThrow(/out of range/);
    expect(() => parsePorts('0')).toThrow(/out of range/);
    expect(() => parsePorts('90-80')).toThrow(/ends before/);
    expect(() => checkConfig({ roots: ['10.0.0.0/8'] })).toThrow(/too large/);
    expect(() => checkConfig({ roots: ['10.0.0.0/33'] })).toThrow(/not a valid CIDR/);
    expect(() => checkConfig({ roots: ['300.1.1.1'] })).toThrow(/not a valid IP/);
    expect(() => checkConfig({ roots: ['example.test'], steps: ['dns_magic' as never] })).toThrow(
      /unknown step "dns_magic"/,
    );
    expect(() => checkConfig({ roots: ['example.test'], resolvers: ['nope'] })).toThrow(/resolver "nope"/);
    expect(faviconHash(ICON)).toBe(ICON_SHODAN_HASH);
  });

  it('passive sources: local answers are read, unconfigured and unreachable ones are skipped with a notice', async () => {
    const crt = await startHttpServer((_req, res) =>
      res.end(JSON.stringify([{ name_value: 'a.example.test\n*.b.example.test' }, { name_value: 'other.org' }])),
    );
    const notices: string[] = [];
    try {
      const found = await passiveSubdomains('example.test', {
        keys: parseProviderConfig('virustotal: []\nsecuritytrails:\n  - key1\n'),
        baseUrls: {
          crtsh: crt.url,
          hackertarget: `http://127.0.0.1:${closed}`,
          alienvault: `http://127.0.0.1:${closed}`,
          securitytrails: `http://127.0.0.1:${closed}`,
        },
        timeoutMs: 2000,
        notice: (m) => notices.push(m),
      });
      expect([...found.keys()].sort()).toEqual(['a.example.test', 'b.example.test']);
      expect(notices.some((n) => n.includes('virustotal skipped: no key'))).toBe(true);
      expect(notices.filter((n) => n.includes('unreachable')).length).toBe(3);
    } finally {
      await crt.close();
    }
  });
});
