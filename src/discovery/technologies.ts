// Technologies from fingerprint templates (nuclei format, e.g. the corpus's http/technologies/tech-detect
// with a named matcher per technology) run by the engine on each web service: the `technologies` hook of
// a discovery run, used by `vigil discover --tech-templates` and by the platform's enumerations.
import { runScan, type EgressPolicy, type Template } from '../engine/index.ts';

export type TechHook = (targets: { url: string; host: string; ip: string }[]) => Promise<Map<string, string[]>>;

/** A technology's name from a result: the matcher's name, else the template id without its suffix. */
export function techName(templateId: string, matcherName: string | undefined): string {
  return matcherName || templateId.replace(/-(detect|detection|version|fingerprint)$/i, '');
}

export interface TechOptions {
  timeoutSeconds: number;
  signal?: AbortSignal;
  /** Send the engine to the resolved address (names found through custom resolvers are unknown to it). */
  ipUrls: boolean;
  /** Services fingerprinted at once (default 10). */
  concurrency?: number;
  /** Where the templates' connections may go (the platform's deny list). */
  egress?: EgressPolicy;
}

export function techHook(templates: Template[], opts: TechOptions): TechHook {
  return async (targets) => {
    const out = new Map<string, string[]>();
    let next = 0;
    const worker = async () => {
      while (next < targets.length && !opts.signal?.aborted) {
        const t = targets[next++]!;
        const names = new Set<string>();
        await runScan({
          targets: [opts.ipUrls ? ipUrl(t.url, t.ip) : t.url],
          templates,
          timeout: opts.timeoutSeconds,
          rateLimit: 0,
          concurrency: 5,
          bulkSize: 1,
          retries: 0,
          signal: opts.signal,
          egress: opts.egress,
          onResult: (ev) => names.add(techName(ev['template-id'], ev['matcher-name'])),
        });
        out.set(t.url, [...names]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 10, targets.length) }, worker));
    return out;
  };
}

function ipUrl(url: string, ip: string): string {
  const u = new URL(url);
  u.hostname = ip.includes(':') ? `[${ip}]` : ip;
  return u.href;
}
