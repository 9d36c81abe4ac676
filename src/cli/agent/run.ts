// `vigil agent`: a process inside another network that runs its team's scans addressed to it. It
// registers (with an Owner's or Admin's API key, which gets it its own agent credential, or directly with
// an agent credential), heartbeats, leases chunks by long polling, runs them with the same engine as
// `vigil scan` and sends findings and scan-log lines back in numbered batches. Outbound HTTP(S) only; no
// database, no listening port.
import { hostname } from 'node:os';
import {
  browserMissing,
  loadScanSecrets,
  memoryWorkflowSource,
  parseTemplate,
  runScan,
  setDebugOutput,
  type InteractshOptions,
  type SecretApplier,
  type Template,
} from '../../engine/index.ts';
import { AgentClient, ApiAnswer, sleep } from './client.ts';
import { ChunkBatches } from './batches.ts';
import { VERSION } from '../version.ts';
import type { LeasedWork } from '../../platform/scans/agent-work.ts';

export interface AgentOptions {
  server: string;
  key: string;
  team?: string;
  name: string;
  tags: string[];
  networks: string[];
  concurrency: number;
  secretFiles: string[];
  ca?: string;
  /** Where progress lines go (stderr by default). */
  say?: (line: string) => void;
}

/** A leased chunk as the server sends it (one declaration of the wire format: the server's). */
type Work = LeasedWork;

interface Parsed {
  templates: Template[];
  deps: Template[];
  skipped: { uri: string; reason: string }[];
}

export interface RunningAgent {
  id: string;
  stop(): Promise<void>;
  done: Promise<void>;
}

export async function startAgent(o: AgentOptions): Promise<RunningAgent> {
  const say = o.say ?? ((l: string) => process.stderr.write(`${new Date().toISOString()} ${l}\n`));
  // Templates of the team run here next to this agent's secrets: print_debug output goes nowhere.
  setDebugOutput(undefined);
  const shutdown = new AbortController();
  let lastRetryNote = 0;
  const client = new AgentClient({
    server: o.server,
    ca: o.ca,
    signal: shutdown.signal,
    onRetry: (path, err, delay) => {
      // One line per 10 s at most while the server is away.
      if (Date.now() - lastRetryNote < 10_000) return;
      lastRetryNote = Date.now();
      const why = err instanceof ApiAnswer ? `HTTP ${err.status}` : (err as Error).message;
      say(`server not reachable (${path}: ${why}); retrying in ${(delay / 1000).toFixed(1)} s`);
    },
  });

  // Secret files stay in this process; loaded (logins run) before any chunk is taken.
  const secrets: SecretApplier | undefined = o.secretFiles.length ? await loadScanSecrets(o.secretFiles) : undefined;

  if (o.key.startsWith('vga_')) {
    client.agentKey = o.key;
  } else {
    // A user's API key: register (Owner or Admin of the team), then use only the agent credential.
    const headers: Record<string, string> = { 'x-api-key': o.key };
    if (o.team) headers['x-team-id'] = o.team;
    const reg = await client.call<{ agent: { id: string }; key: string }>(
      '/v1/agents',
      { name: o.name, tags: o.tags, networks: o.networks, version: VERSION },
      headers,
    );
    client.agentKey = reg.key;
  }
  // Chromium found now (VIGIL_CHROMIUM or /usr/bin/chromium): the server sends this agent chunks of scans
  // with headless templates only when it has it.
  const noBrowser = browserMissing();
  const hello = await client.call<{
    id: string;
    name: string;
    team_id: string;
    lease_seconds: number;
    oast_domain?: string;
  }>('/v1/agents/me/heartbeat', {
    version: VERSION,
    headless: noBrowser === undefined,
    ...(o.tags.length ? { tags: o.tags } : {}),
    ...(o.networks.length ? { networks: o.networks } : {}),
  });
  say(`agent ${hello.name} (${hello.id}) of team ${hello.team_id} connected to ${client.base}`);
  if (noBrowser) say(`headless templates: this agent ${noBrowser}; scans with them go to agents that have one`);

  // Out-of-band checks ({{interactsh-url}}) use the platform's OAST server, registered and polled through
  // the API (the agent needs no other way out to it, and never its token). Registration is retried as any
  // call; a poll that fails is tried again at the next interval.
  const interactsh: InteractshOptions | undefined = hello.oast_domain
    ? {
        server: client.base,
        domain: hello.oast_domain,
        transport: (op, fields) =>
          op === 'register'
            ? client.call(`/v1/agents/me/oast/${op}`, fields)
            : client.once(`/v1/agents/me/oast/${op}`, fields),
      }
    : undefined;
  if (interactsh) say(`out-of-band checks through the server's OAST domain ${hello.oast_domain}`);

  const active = new Map<string, AbortController>();
  const cache = new Map<string, Parsed>();

  // Heartbeat: renews the leases of running chunks; a lease the server no longer gives this agent stops
  // its chunk at once.
  const beat = async () => {
    const leases = [...active.keys()];
    const res = await client.call<{ lost: string[] }>('/v1/agents/me/heartbeat', { leases });
    for (const l of res.lost) active.get(l)?.abort(new Error('lease lost'));
  };
  const beatEvery = Math.max(1000, (hello.lease_seconds * 1000) / 3);
  const heartbeat = (async () => {
    while (!shutdown.signal.aborted) {
      await sleep(beatEvery, shutdown.signal);
      if (shutdown.signal.aborted) break;
      await beat().catch((err) => {
        if (!shutdown.signal.aborted) say(`heartbeat failed: ${(err as Error).message}`);
      });
    }
  })();

  const parse = (w: Work): Parsed => {
    const hit = cache.get(w.templates_key);
    if (hit) return hit;
    const p: Parsed = { templates: [], deps: [], skipped: [] };
    for (const t of w.templates ?? []) {
      const res = parseTemplate(t.raw, t.uri, t.payload_files ? { payloadFiles: t.payload_files } : {});
      if (res.template) (t.dependency ? p.deps : p.templates).push(res.template);
      else if (!t.dependency) p.skipped.push({ uri: t.uri, reason: res.issues[0]?.reason ?? 'not a template' });
    }
    if (cache.size >= 8) cache.delete(cache.keys().next().value!);
    cache.set(w.templates_key, p);
    return p;
  };

  const runChunk = async (w: Work) => {
    if (!w.templates && !cache.has(w.templates_key)) {
      // Another lane dropped this run's templates from the cache after this lease was asked for: give the
      // chunk back; the next lease asks for the templates again.
      await client.call('/v1/agents/me/release', { lease: w.lease }).catch(() => {});
      return;
    }
    const stop = new AbortController();
    active.set(w.lease, stop);
    const onShutdown = () => stop.abort(new Error('agent shutting down'));
    shutdown.signal.addEventListener('abort', onShutdown, { once: true });
    const batches = new ChunkBatches(client, w.lease, () => stop.abort(new Error('lease lost')));
    try {
      const p = parse(w);
      if (w.idx === 0) {
        for (const s of p.skipped)
          batches.log({
            target: '',
            template_id: s.uri,
            matched: false,
            error: `template not run: it does not load: ${s.reason}`,
          });
      }
      // The scan's own proxy is chosen by the team's users, the secrets by whoever runs this agent: they
      // never travel together (as on workers).
      const proxy = w.options.socks5_proxy;
      const useSecrets = proxy ? undefined : secrets;
      if (proxy && secrets && w.idx === 0) {
        batches.log({
          target: w.targets[0] ?? '',
          template_id: 'agent-secrets',
          matched: false,
          error: 'agent secrets not applied: the scan routes its requests through its own socks5_proxy',
        });
      }
      if (p.templates.length > 0) {
        await runScan({
          targets: w.targets,
          templates: p.templates,
          concurrency: w.options.concurrency,
          bulkSize: w.options.bulk_size,
          rateLimit: w.options.rate_limit,
          timeout: w.options.timeout,
          retries: w.options.retries,
          maxHostErrors: w.options.max_host_errors,
          vars: w.options.vars as Record<string, string> | undefined,
          headers: w.options.headers,
          socks5Proxy: proxy,
          secrets: useSecrets,
          interactsh,
          onNotice: (m) => {
            if (m.startsWith('interactsh')) say(m);
          },
          signal: stop.signal,
          workflowSource: memoryWorkflowSource(p.deps),
          onResult: (ev) => batches.result(ev),
          onAttempt: (a) => batches.attempt(a),
          onHostSkipped: (host, errors) =>
            batches.log({
              target: host,
              template_id: 'max-host-errors',
              matched: false,
              error: `host skipped: ${errors} errors reached the max host errors limit; no more requests went to it`,
            }),
          onTemplateSkipped: (id, reason) => {
            if (w.idx === 0)
              batches.log({ target: '', template_id: id, matched: false, error: `template not run: ${reason}` });
          },
        });
      }
      if (stop.signal.aborted) {
        batches.close();
        if (shutdown.signal.aborted && !batches.lost) {
          // Give the chunk back so another agent runs it now rather than after the lease times out.
          await client.once('/v1/agents/me/release', { lease: w.lease }, {}, false).catch(() => {});
        }
        say(
          `chunk ${w.idx} of scan ${w.scan_id} stopped: ${String((stop.signal.reason as Error)?.message ?? 'stopped')}`,
        );
        return;
      }
      await batches.finish();
      if (batches.lost) {
        say(`chunk ${w.idx} of scan ${w.scan_id} stopped: lease lost`);
        return;
      }
      await client.call('/v1/agents/me/complete', { lease: w.lease, seq: batches.seq });
      say(`chunk ${w.idx} of scan ${w.scan_id} done (${w.targets.length} targets)`);
    } catch (err) {
      batches.close();
      if (!shutdown.signal.aborted) say(`chunk ${w.idx} of scan ${w.scan_id} failed: ${(err as Error).message}`);
    } finally {
      shutdown.signal.removeEventListener('abort', onShutdown);
      active.delete(w.lease);
    }
  };

  // One lane per --concurrency: each leases a chunk, runs it, leases the next.
  const lane = async () => {
    while (!shutdown.signal.aborted) {
      try {
        const res = await client.call<{ work: Work | null }>('/v1/agents/me/lease', {
          wait: 20,
          have: [...cache.keys()],
        });
        if (res.work) await runChunk(res.work);
      } catch (err) {
        if (shutdown.signal.aborted) break;
        if (err instanceof ApiAnswer && err.status === 401) {
          say('the server refused this agent key (removed or re-registered elsewhere); stopping');
          shutdown.abort();
          break;
        }
        say(`leasing failed: ${(err as Error).message}`);
        await sleep(2000, shutdown.signal);
      }
    }
  };
  const lanes = Array.from({ length: Math.max(1, o.concurrency) }, () => lane());
  say(`agent ready: ${o.concurrency} chunk${o.concurrency === 1 ? '' : 's'} at once`);
  const done = Promise.all([...lanes, heartbeat]).then(async () => {
    await client.close().catch(() => {});
  });
  return {
    id: hello.id,
    done,
    async stop() {
      shutdown.abort();
      await done;
    },
  };
}

export const defaultAgentName = () => hostname();
