// An enumeration's discovery on its own thread: assets handed over in acknowledged batches, the deny list
// rebuilt on the thread, and a run that does not stop when aborted is terminated.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { waitFor } from '../../helpers/wait.ts';
import { runDiscoveryThread, type DiscoveryThreadInput } from '../../../src/platform/assets/discovery-runner.ts';

const deny = { port: 8085, host: '127.0.0.1', denyTargets: [], allowDeniedTargets: false };

describe('discovery thread', () => {
  const servers: TestServer[] = [];
  let silent: net.Server;
  let silentPort: number;
  /** Requests (bytes) the silent server received: the port scan only connects, the HTTP probe sends. */
  let silentAsked = 0;
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) servers.push(await startHttpServer((_q, res) => res.end(`<title>s${i}</title>`)));
    // Accepts connections and never answers.
    silent = net.createServer((socket) => socket.once('data', () => silentAsked++));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentPort = (silent.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    silent?.close();
  });

  const input = (
    over: Partial<DiscoveryThreadInput['config']>,
    extra: Partial<DiscoveryThreadInput> = {},
  ): DiscoveryThreadInput => ({
    config: {
      roots: ['127.0.0.1'],
      steps: ['port_scan', 'http_probe'],
      ports: servers.map((s) => s.port).join(','),
      limits: { timeoutMs: 2000 },
      ...over,
    },
    deny,
    batchSize: 2,
    ...extra,
  });

  it('hands its assets over in batches, the next only after the last was stored', async () => {
    const batches: string[][] = [];
    let inFlight = 0;
    let most = 0;
    const { total } = await runDiscoveryThread(input({}), {
      onEvent: () => {},
      onAssets: async (assets) => {
        most = Math.max(most, ++inFlight);
        batches.push(assets.map((a) => `${a.host}:${a.port} ${a.http?.title}`));
        await new Promise((r) => setTimeout(r, 100));
        inFlight--;
      },
    });
    expect(total).toBe(3);
    expect(batches.map((b) => b.length)).toEqual([2, 1]);
    expect(batches.flat().sort()).toEqual(servers.map((s, i) => `127.0.0.1:${s.port} s${i}`).sort());
    expect(most).toBe(1);
  });

  it("applies the deny list on the thread: the platform's own port on loopback is never probed", async () => {
    const found: string[] = [];
    const before = servers[1]!.requests.length;
    await runDiscoveryThread(input({}, { deny: { ...deny, port: servers[1]!.port } }), {
      onEvent: () => {},
      onAssets: async (assets) => void found.push(...assets.map((a) => `${a.host}:${a.port}`)),
    });
    expect(found.sort()).toEqual([servers[0]!, servers[2]!].map((s) => `127.0.0.1:${s.port}`).sort());
    expect(servers[1]!.requests.length).toBe(before);
  });

  it('an aborted run ends within seconds even while a probe waits on a silent server', async () => {
    const stop = new AbortController();
    const run = runDiscoveryThread(input({ ports: String(silentPort), limits: { timeoutMs: 60_000 } }), {
      signal: stop.signal,
      onEvent: () => {},
      onAssets: async () => {},
    });
    // Once the probe has sent its request to the silent port, it waits for its 60 s timeout.
    const asked = silentAsked;
    await waitFor(async () => silentAsked > asked, 30_000, 20);
    const started = Date.now();
    stop.abort(new Error('stopped by the test'));
    await expect(run).rejects.toThrow(/stopped by the test|did not stop/);
    expect(Date.now() - started).toBeLessThan(9000); // 5 s for the thread to stop, then terminated
  });
});
