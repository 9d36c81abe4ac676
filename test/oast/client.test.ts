// The engine's interactsh client against the OAST server: an interaction that comes before its request's
// wait is registered still reaches it; a wait is dropped after the eviction time; close() keeps polling
// until the cooldown after the last name; interactions sealed the older way (CFB) are read too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import crypto from 'node:crypto';
import { startOast, type OastServer } from '../../src/oast/index.ts';
import { oastConfigFromEnv } from '../../src/oast/config.ts';
import { OastClient, openSealed, type OastInteraction } from '../../src/engine/oast/client.ts';
import { waitFor } from '../helpers/wait.ts';

const DOMAIN = 'client.oast.test';
let server: OastServer;
const seenByServer: string[] = [];

function callback(name: string): Promise<void> {
  return new Promise((resolve, reject) =>
    http
      .get({ host: '127.0.0.1', port: server.ports.http, path: '/', headers: { host: name } }, (r) => {
        r.resume();
        r.on('end', () => resolve());
      })
      .on('error', reject),
  );
}

beforeAll(async () => {
  server = await startOast(
    oastConfigFromEnv({ VIGIL_OAST_DOMAIN: DOMAIN, VIGIL_OAST_IP: '127.0.0.1', VIGIL_OAST_HTTP: '127.0.0.1:0' })!,
    (i) => seenByServer.push(i['unique-id']),
  );
});
afterAll(async () => {
  await server?.close();
});

describe('the engine interactsh client', () => {
  it('hands an interaction that came first to the wait registered after it', async () => {
    const c = await OastClient.connect({ server: server.localUrl, domain: DOMAIN, pollMs: 60_000, cooldownMs: 0 });
    const name = c.newUrl();
    expect(name).toMatch(new RegExp(`^[a-z0-9]{33}\\.${DOMAIN.replaceAll('.', '\\.')}$`));
    await callback(name);
    await c.poll(); // the interaction is in, nobody waits for it yet
    const got: OastInteraction[] = [];
    c.expect(name, (i) => (got.push(i), true));
    expect(got.map((i) => i.protocol)).toEqual(['http']);
    await c.close();
  });

  it('drops a wait after the eviction time', async () => {
    const c = await OastClient.connect({
      server: server.localUrl,
      domain: DOMAIN,
      pollMs: 60_000,
      evictionMs: 200,
      cooldownMs: 0,
    });
    const name = c.newUrl();
    const got: OastInteraction[] = [];
    c.expect(name, (i) => (got.push(i), true));
    await new Promise((r) => setTimeout(r, 400)); // the subject: the eviction time passing
    await callback(name);
    await waitFor(async () => seenByServer.includes(name.split('.')[0]!));
    await c.poll();
    expect(got).toEqual([]);
    await c.close();
  });

  it('close() polls until the cooldown after the last name has passed, then deregisters', async () => {
    const c = await OastClient.connect({ server: server.localUrl, domain: DOMAIN, pollMs: 100, cooldownMs: 1500 });
    const name = c.newUrl();
    const got: OastInteraction[] = [];
    c.expect(name, (i) => (got.push(i), true));
    const started = Date.now();
    // The target calls back late, within the cooldown: the closing polls still deliver it.
    setTimeout(() => void callback(name), 700);
    await c.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(got).toHaveLength(1);
    expect(server.sessions.size).toBe(0);
  });

  it('reads interactions sealed with AES-CFB (interactsh servers before 2025) as well as CTR', () => {
    const key = crypto.randomBytes(32);
    const iv = crypto.randomBytes(16);
    const text = JSON.stringify({ protocol: 'dns', 'unique-id': 'x' });
    const cfb = crypto.createCipheriv('aes-256-cfb', key, iv);
    const sealed = Buffer.concat([iv, cfb.update(text), cfb.final()]).toString('base64');
    expect(openSealed(key, sealed)).toBe(text);
    const ctr = crypto.createCipheriv('aes-256-ctr', key, iv);
    expect(openSealed(key, Buffer.concat([iv, ctr.update(text), ctr.final()]).toString('base64'))).toBe(text);
    expect(openSealed(key, 'AAAA')).toBeUndefined();
  });
});
