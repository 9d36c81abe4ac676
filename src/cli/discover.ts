// `vigil discover`: runs discovery steps from the command line and prints JSON lines: one per event
// (host, port, http, tls, notice) as it happens, and one per asset at the end ({"type":"asset",...}).
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';

const list = (v: string, prev: string[] = []) => [
  ...prev,
  ...v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];
const int = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${v}"`);
  return n;
};

interface Flags {
  steps?: string[];
  ports?: string;
  resolvers?: string[];
  wordlist?: string;
  exclude?: string[];
  providerConfig?: string;
  cloudlistConfig?: string;
  concurrency: number;
  rateLimit: number;
  timeout: number;
  redirects: boolean;
  progress?: boolean;
  screenshots?: boolean;
  techTemplates?: string[];
}

export function registerDiscover(program: Command): void {
  program
    .command('discover')
    .description('discover assets of domains, IP addresses and CIDR ranges (JSON lines out)')
    .argument('[roots...]', 'domains, IP addresses or CIDR ranges (none needed with --cloudlist-config)')
    .option(
      '--steps <list>',
      'steps to run: dns_resolve,dns_bruteforce,dns_passive,port_scan,http_probe,tls_scan,http_screenshot (default dns_resolve,port_scan,http_probe)',
      list,
    )
    .option('-p, --ports <list>', 'ports: "80,443,8000-8100", "top-100" (default), "full"')
    .option('-r, --resolvers <list>', 'DNS resolvers host:port (default: the system resolver)', list)
    .option('-w, --wordlist <file>', 'words for dns_bruteforce, one a line')
    .option('-e, --exclude <list>', 'exclusions (names, *.wildcards, IPs, CIDRs; +pattern to include only)', list)
    .option('--provider-config <file>', 'subfinder provider-config.yaml with dns_passive keys')
    .option(
      '--cloudlist-config <file>',
      "cloudlist provider-config.yaml: its accounts' hosts and public addresses are added (do, hetzner, linode, cloudflare, heroku; API addresses from VIGIL_CLOUD_ENDPOINTS)",
    )
    .option('-c, --concurrency <n>', 'operations in parallel', int('concurrency'), 50)
    .option('--rate-limit <n>', 'operations per second, 0 = no limit', int('rate-limit'), 0)
    .option('--timeout <ms>', 'milliseconds per connection or query', int('timeout'), 3000)
    .option('--no-redirects', 'do not follow HTTP redirects')
    .option('--progress', 'also print progress events')
    .option('--screenshots', 'include screenshots (base64 PNG) in the asset lines')
    .option(
      '--tech-templates <path>',
      'fingerprint templates (file or folder, repeatable) run by the engine on web services, e.g. http/technologies/tech-detect.yaml',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .action(async (roots: string[], f: Flags) => {
      const { runDiscovery, checkConfig, parseProviderConfig, parseCloudConfig, parseCloudEndpoints } =
        await import('../discovery/index.ts');
      const out = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
      let cloud;
      if (f.cloudlistConfig) {
        try {
          cloud = {
            providers: parseCloudConfig(readFileSync(f.cloudlistConfig, 'utf8')),
            baseUrls: parseCloudEndpoints(process.env.VIGIL_CLOUD_ENDPOINTS ?? ''),
          };
        } catch (e) {
          process.stderr.write(`vigil discover: --cloudlist-config ${f.cloudlistConfig}: ${(e as Error).message}\n`);
          process.exitCode = 2;
          return;
        }
      }
      const config = {
        cloud,
        roots,
        steps: f.steps as never,
        ports: f.ports,
        resolvers: f.resolvers,
        wordlist: f.wordlist ? readFileSync(f.wordlist, 'utf8').split(/\r?\n/).filter(Boolean) : undefined,
        exclusions: f.exclude,
        followRedirects: f.redirects,
        passive: { keys: f.providerConfig ? parseProviderConfig(readFileSync(f.providerConfig, 'utf8')) : {} },
        limits: { concurrency: f.concurrency, rateLimit: f.rateLimit, timeoutMs: f.timeout },
      };
      try {
        checkConfig(config);
      } catch (e) {
        process.stderr.write(`vigil discover: ${(e as Error).message}\n`);
        process.exitCode = 2;
        return;
      }
      let technologies;
      if (f.techTemplates?.length) {
        const { loadTemplates } = await import('../engine/index.ts');
        const { techHook } = await import('../discovery/index.ts');
        const loaded = await loadTemplates(f.techTemplates);
        if (!loaded.templates.length) {
          process.stderr.write(`vigil discover: no template loads from ${f.techTemplates.join(', ')}\n`);
          process.exitCode = 2;
          return;
        }
        technologies = techHook(loaded.templates, {
          timeoutSeconds: Math.max(1, Math.ceil(f.timeout / 1000)),
          ipUrls: (f.resolvers ?? []).length > 0,
        });
      }
      const assets = await runDiscovery({ ...config, technologies }, (e) => {
        if (e.type === 'progress' && !f.progress) return;
        if (e.type === 'notice') process.stderr.write(`[notice] ${e.message}\n`);
        out(e);
      });
      for (const a of assets) {
        const { screenshot, ...rest } = a;
        out({ type: 'asset', ...rest, ...(f.screenshots && screenshot ? { screenshot } : {}) });
      }
    });
}
