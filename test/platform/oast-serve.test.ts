// `vigil serve` with VIGIL_OAST_* runs the OAST server beside the API: its DNS listener answers names under
// the domain, the interactsh API registers clients, and the scans' client settings point at the port it
// bound. Wrong settings stop the start with the variable's name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Resolver } from 'node:dns/promises';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/platform/server.ts';
import { configFromEnv } from '../../src/platform/shared/config.ts';
import { TestInteractshClient } from '../oast/interactsh-client.ts';
import { waitFor } from '../helpers/wait.ts';

const DOMAIN = 'serve.oast.test';
const OAST_ENV = {
  VIGIL_OAST_DOMAIN: DOMAIN,
  VIGIL_OAST_IP: '127.0.0.1',
  VIGIL_OAST_HTTP: '127.0.0.1:0',
  VIGIL_OAST_DNS: '127.0.0.1:0',
  VIGIL_OAST_TOKEN: 'serve-token-1',
};

describe('vigil serve with an OAST server', () => {
  let server: RunningServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-oast-serve-'));
    const config = { ...configFromEnv(OAST_ENV), port: 0, dataDir: dir };
    server = await startServer({ config, worker: false, log: pino({ level: 'silent' }), shutdownGraceMs: 5_000 });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers DNS for the domain and registers interactsh clients; scans are pointed at it', async () => {
    const oast = server.oast!;
    expect(oast.ports.dns).toBeGreaterThan(0);
    const r = new Resolver();
    r.setServers([`127.0.0.1:${oast.ports.dns}`]);
    expect(await r.resolve4(`anything.${DOMAIN}`)).toEqual(['127.0.0.1']);
    expect(server.ctx.config.interactsh).toEqual({
      server: oast.localUrl,
      domain: DOMAIN,
      token: 'serve-token-1',
    });
    const c = new TestInteractshClient(oast.localUrl, DOMAIN, 'serve-token-1');
    expect((await c.register()).status).toBe(200);
    const name = c.name();
    await r.resolve4(name);
    const got = await waitFor(async () => (await c.poll()).find((i) => i.protocol === 'dns'));
    expect(got['unique-id']).toBe(name.split('.')[0]);
  });

  it('refuses wrong OAST settings naming the variable', () => {
    expect(() => configFromEnv({ ...OAST_ENV, VIGIL_OAST_IP: 'not-an-ip' })).toThrow(/VIGIL_OAST_IP/);
    expect(() => configFromEnv({ ...OAST_ENV, VIGIL_OAST_DNS: 'host:99999' })).toThrow(/VIGIL_OAST_DNS/);
    expect(() => configFromEnv({ ...OAST_ENV, VIGIL_OAST_DOMAIN: 'bad_domain!' })).toThrow(/VIGIL_OAST_DOMAIN/);
    expect(() => configFromEnv({ ...OAST_ENV, VIGIL_OAST_HTTPS: '0.0.0.0:443' })).toThrow(/VIGIL_OAST_CERT/);
    // Unset domain: no OAST server, no client settings.
    expect(configFromEnv({}).oast).toBeUndefined();
    expect(configFromEnv({}).interactsh).toBeUndefined();
  });
});
