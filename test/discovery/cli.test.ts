// `vigil discover` as a user runs it: a real process, JSON lines out, bad input refused with exit code 2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { spawnVigil } from '../helpers/process.ts';
import { hasShared, sharedDir } from '../helpers/shared.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { sampleInventory, sampleProviderConfig, startCloudApis, TOKENS } from '../helpers/cloud-apis.ts';

describe('vigil discover', () => {
  let web: TestServer;
  beforeAll(async () => {
    web = await startHttpServer(
      (_req, res) => {
        res.setHeader('Server', 'Apache/2.4.58');
        res.end('<title>CLI target</title><p>Project Management Software: atlassian.com/software/jira</p>');
      },
      { host: '127.0.0.7' },
    );
  });
  afterAll(async () => {
    await web?.close();
  });

  it('prints events and assets as JSON lines', async () => {
    const p = spawnVigil([
      'discover',
      '127.0.0.7',
      '-p',
      `${web.port},1`,
      '--steps',
      'port_scan,http_probe',
      '--progress',
    ]);
    expect(await p.exited).toBe(0);
    const lines = p.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'port')).toEqual([
      { type: 'port', host: '127.0.0.7', ip: '127.0.0.7', port: web.port },
    ]);
    expect(lines.some((l) => l.type === 'progress' && l.step === 'port_scan' && l.done === 2 && l.total === 2)).toBe(
      true,
    );
    const assets = lines.filter((l) => l.type === 'asset');
    expect(assets).toHaveLength(1);
    expect(assets[0]).toMatchObject({
      host: '127.0.0.7',
      port: web.port,
      http: { status_code: 200, title: 'CLI target', webserver: 'Apache/2.4.58', technologies: ['Apache'] },
    });
  }, 60_000);

  it.skipIf(!hasShared('corpus/nuclei-templates'))(
    '--tech-templates runs fingerprint templates with the engine',
    async () => {
      const tech = path.join(sharedDir, 'corpus/nuclei-templates/http/technologies/tech-detect.yaml');
      const p = spawnVigil([
        'discover',
        '127.0.0.7',
        '-p',
        String(web.port),
        '--steps',
        'port_scan,http_probe',
        '--tech-templates',
        tech,
      ]);
      expect(await p.exited).toBe(0);
      const asset = p.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .find((l) => l.type === 'asset');
      // Apache from the Server header; Jira only from tech-detect's body matcher.
      expect(asset.http.technologies.map((x: string) => x.toLowerCase()).sort()).toEqual(['apache', 'atlassian-jira']);
    },
    60_000,
  );

  it('refuses bad input with the reason and exit code 2', async () => {
    for (const [args, re] of [
      [['10.0.0.0/8'], /too large/],
      [['example.test', '--steps', 'dns_magic'], /unknown step "dns_magic"/],
      [['example.test', '-p', '65536'], /out of range/],
      [['999.1.1.1/24'], /not a valid CIDR/],
      [[], /no roots given/],
      [['--cloudlist-config', '/nonexistent/provider-config.yaml'], /--cloudlist-config .*ENOENT/],
    ] as const) {
      const p = spawnVigil(['discover', ...args]);
      expect(await p.exited).toBe(2);
      expect(p.stderr).toMatch(re);
      expect(p.stdout).toBe('');
    }
  }, 60_000);

  it('--cloudlist-config lists cloud accounts (API addresses from VIGIL_CLOUD_ENDPOINTS), with no roots', async () => {
    const apis = await startCloudApis(sampleInventory());
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-cloud-cli-'));
    try {
      const file = path.join(dir, 'provider-config.yaml');
      writeFileSync(file, sampleProviderConfig());
      const p = spawnVigil(
        [
          'discover',
          '--cloudlist-config',
          file,
          '--steps',
          'dns_resolve',
          '-e',
          '*.cf.example.test,*.cf2.example.test,*.ondigitalocean.example.test',
        ],
        { VIGIL_CLOUD_ENDPOINTS: apis.endpointsEnv },
      );
      expect(await p.exited).toBe(0);
      const hosts = p.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((l) => l.type === 'asset')
        .map((a) => `${a.host} ${a.sources}`);
      expect(hosts.sort()).toEqual([
        '127.0.0.11 cloudlist:do',
        '127.0.0.12 cloudlist:do',
        '127.0.0.13 cloudlist:do',
        '127.0.0.31 cloudlist:hetzner',
        '127.0.0.32 cloudlist:hetzner',
        '127.0.0.41 cloudlist:linode',
        '127.0.0.42 cloudlist:linode',
        'api.do.example.test cloudlist:do',
        'do.example.test cloudlist:do',
      ]);
      for (const t of Object.values(TOKENS)) expect(p.stdout + p.stderr).not.toContain(t);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await apis.close();
    }
  }, 60_000);
});
