// `vigil scan`: run nuclei-format templates against targets from the command line, nuclei-style flags.
import { createWriteStream, readFileSync, statSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { tuneTiering } from './tiering.ts';
// The engine is imported when a scan runs, not at start-up: `vigil --version` and other commands never
// load it (start-up time is most of a short scan's time).
import type { InteractshOptions, ResultEvent, Severity, Template, TemplateFilter } from '../engine/index.ts';

/** Multi-letter short flags nuclei users type; commander only knows one-letter ones, so we translate. */
const SHORT_ALIASES: Record<string, string> = {
  '-rl': '--rate-limit',
  '-bs': '--bulk-size',
  '-sf': '--secret-file',
  '-ms': '--matcher-status',
  '-dr': '--disable-redirects',
  '-nm': '--no-meta',
  '-mhe': '--max-host-error',
  '-at': '--attack-type',
  '-esc': '--enable-self-contained',
  '-etags': '--exclude-tags',
  '-V': '--var',
  '-lna': '--restrict-local-network-access',
  '-dut': '--disable-unsigned-templates',
  '-aut': '--allow-unsigned-templates',
  '-iserver': '--interactsh-server',
  '-itoken': '--interactsh-token',
  '-ni': '--no-interactsh',
  '-interactions-poll-duration': '--interactions-poll-duration',
  '-interactions-cooldown-period': '--interactions-cooldown-period',
  '-interactions-eviction': '--interactions-eviction',
};

export function translateShortFlags(argv: string[]): string[] {
  return argv.map((a) => {
    const eq = a.indexOf('=');
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const long = SHORT_ALIASES[flag];
    return long ? (eq > 0 ? long + a.slice(eq) : long) : a;
  });
}

const collect = (v: string, prev: string[] = []) => [...prev, v];
const list = (v: string, prev: string[] = []) => [
  ...prev,
  ...v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

function intOption(name: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${v}"`);
    return n;
  };
}

interface ScanFlags {
  cluster?: boolean;
  strict?: boolean;
  excludeTags?: string[];
  enableSelfContained?: boolean;
  target?: string[];
  list?: string;
  templates?: string[];
  tags?: string[];
  severity?: string[];
  var?: string[];
  rateLimit?: number;
  concurrency?: number;
  scanThreads?: number;
  bulkSize?: number;
  timeout?: number;
  retries?: number;
  maxHostError?: number;
  jsonl?: boolean;
  output?: string;
  matcherStatus?: boolean;
  stats?: boolean;
  secretFile?: string[];
  templatesDir?: string;
  proxy?: string;
  sni?: string;
  disableRedirects?: boolean;
  attackType?: 'batteringram' | 'pitchfork' | 'clusterbomb';
  meta?: boolean;
  resolvers?: string[];
  traceRoots?: string[];
  tracePort?: number;
  restrictLocalNetworkAccess?: boolean;
  disableUnsignedTemplates?: boolean;
  allowUnsignedTemplates?: boolean;
  trustCertificate?: string[];
  interactsh?: boolean;
  interactshServer?: string;
  interactshToken?: string;
  interactionsPollDuration?: number;
  interactionsCooldownPeriod?: number;
  interactionsEviction?: number;
}

class UsageError extends Error {}

function parseVars(pairs: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new UsageError(`--var expects key=value, got "${p}"`);
    out[p.slice(0, eq).trim()] = p.slice(eq + 1);
  }
  return out;
}

/** -r values: resolvers, or files listing one per line (as nuclei's -r). */
function readResolvers(values: string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    let text: string | undefined;
    try {
      if (statSync(v).isFile()) text = readFileSync(v, 'utf8');
    } catch {
      // Not a file: a resolver.
    }
    if (text === undefined) out.push(v);
    else
      out.push(
        ...text
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter((l) => l && !l.startsWith('#')),
      );
  }
  return out;
}

function readTargets(flags: ScanFlags): string[] {
  const targets = [...(flags.target ?? [])];
  if (flags.list) {
    let text: string;
    try {
      text = readFileSync(flags.list, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read target list ${flags.list}: ${(err as NodeJS.ErrnoException).code ?? err}`);
    }
    targets.push(
      ...text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#')),
    );
  }
  return targets;
}

/** --templates-dir when given, else each -t folder, then the working directory. */
export function loginTemplateDirs(templatesDir: string | undefined, templates: string[] = []): string[] {
  if (templatesDir) return [path.resolve(templatesDir)];
  const folders = templates.filter((t) => {
    try {
      return statSync(t).isDirectory();
    } catch {
      return false;
    }
  });
  return [...new Set([...folders.map((f) => path.resolve(f)), process.cwd()])];
}

/**
 * Template-signing certificates trusted besides ProjectDiscovery's: each --trust-certificate file, and
 * NUCLEI_USER_CERTIFICATE (PEM text, or a file holding it) as nuclei reads it.
 */
export function trustedCertificates(files: string[] = [], env: NodeJS.ProcessEnv = process.env): string[] {
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`);
    }
  };
  const out = files.map((f) => read(f, 'certificate'));
  const fromEnv = env.NUCLEI_USER_CERTIFICATE?.trim();
  if (fromEnv) out.push(fromEnv.includes('-----BEGIN') ? fromEnv : read(fromEnv, 'NUCLEI_USER_CERTIFICATE file'));
  return out;
}

/**
 * Where out-of-band checks go: -iserver; else an OAST server embedded in this process when VIGIL_OAST_*
 * says where it listens; else nowhere (said once when a template needs it). -ni turns them off.
 */
async function interactshFor(
  flags: ScanFlags,
  templates: Template[],
  say: (level: 'info' | 'warn', m: string) => void,
): Promise<{ options?: InteractshOptions; close?: () => Promise<void> }> {
  if (flags.interactsh === false) return {};
  const waiting = {
    token: flags.interactshToken,
    pollSeconds: flags.interactionsPollDuration || undefined,
    cooldownSeconds: flags.interactionsCooldownPeriod,
    evictionSeconds: flags.interactionsEviction || undefined,
  };
  if (flags.interactshServer) return { options: { server: flags.interactshServer, ...waiting } };
  const { usesInteractsh } = await import('../engine/index.ts');
  const needed = templates.some(usesInteractsh);
  if (!needed) return {};
  const { oastConfigFromEnv, startOast } = await import('../oast/index.ts');
  let config;
  try {
    config = oastConfigFromEnv(process.env);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (!config) {
    say(
      'warn',
      'no interactsh server: templates using {{interactsh-url}} cannot match (give -iserver URL, or set VIGIL_OAST_DOMAIN, VIGIL_OAST_IP and VIGIL_OAST_HTTP for an embedded one; docs/oast.md)',
    );
    return {};
  }
  let server;
  try {
    server = await startOast(config);
  } catch (err) {
    throw new UsageError(`cannot start the embedded OAST server: ${(err as Error).message}`);
  }
  const where = Object.entries(server.ports)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  say('info', `embedded OAST server for ${config.domain} (${where})`);
  return {
    options: { ...waiting, server: server.localUrl, domain: config.domain, token: config.token },
    close: () => server.close(),
  };
}

async function scanAction(flags: ScanFlags): Promise<void> {
  const vars = parseVars(flags.var);
  const targets = readTargets(flags);
  if (!flags.templates || flags.templates.length === 0) throw new UsageError('no templates: give -t FILE_OR_FOLDER');
  const filter: TemplateFilter = {};
  if (flags.tags?.length) filter.tags = flags.tags;
  if (flags.severity?.length) filter.severities = flags.severity as Severity[];
  if (flags.excludeTags?.length) filter.excludeTags = flags.excludeTags;
  const {
    loadTemplates,
    closeClients,
    formatJson,
    formatPlain,
    runScan,
    protocolSummary,
    formatProtocolSummary,
    unsupportedReason,
    fileWorkflowSource,
    requestsPerTarget,
    loadScanSecrets,
    signersFor,
    signatureRefusal,
    compileTemplate,
    runScanOnThreads,
    singleThreadReason,
  } = await import('../engine/index.ts');
  const certificates = trustedCertificates(flags.trustCertificate);
  // The operator's certificates are checked before anything runs, so a bad one is a usage error. With
  // none, ProjectDiscovery's alone is read when a template first needs a signature check (and with it
  // node:crypto, which a scan of unsigned http templates then never loads).
  if (certificates.length > 0) {
    try {
      signersFor(certificates);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  // Metadata first (id, info, protocol kinds): the filter reads only that, and only the templates it
  // keeps are compiled, here, so their problems are reported before the scan as a full load would.
  // --templates-dir is the folder javascript's nuclei/fs reads; else each template's checkout (payloads.ts).
  const loaded = await loadTemplates(flags.templates, filter, {
    lazy: true,
    ...(flags.templatesDir ? { filesRoot: flags.templatesDir } : {}),
  });
  loaded.templates = loaded.templates.filter((t) => {
    const { issues } = compileTemplate(t);
    loaded.issues.push(...issues);
    return issues.length === 0;
  });
  if (loaded.issues.length > 0) reportLoadIssues(loaded.issues, flags);
  // Self-contained templates (OSINT lookups, token checks against third-party APIs) contact the hosts
  // they name, not the targets: like nuclei, they run only with -esc.
  if (!flags.enableSelfContained) {
    const before = loaded.templates.length;
    loaded.templates = loaded.templates.filter((t) => !t.selfContained);
    const left = before - loaded.templates.length;
    if (left > 0)
      console.error(
        `[INF] ${left} self-contained template(s) not run: they contact the hosts they name, not the targets (-esc runs them)`,
      );
  }
  const needsTarget = loaded.templates.some((t) => !t.selfContained);
  if (targets.length === 0 && needsTarget) throw new UsageError('no targets: give -u TARGET or -l FILE');

  const secrets = await loadScanSecrets(flags.secretFile ?? [], {
    timeout: flags.timeout ?? 10,
    retries: flags.retries,
    socks5Proxy: flags.proxy,
    templatesDirs: loginTemplateDirs(flags.templatesDir, flags.templates),
  });
  // A login template found under a -t folder is not a scan template: run against every target it would
  // send the login again (credentials included) and re-run a login that already happened.
  const loginFiles = new Set(secrets?.dynamicEntries.map((e) => e.dynamic!.template) ?? []);
  const templates = loaded.templates.filter((t) => !loginFiles.has(path.resolve(t.path)));
  tuneTiering(templates, requestsPerTarget);
  let out: WriteStream | undefined;
  if (flags.output) out = createWriteStream(flags.output, { flags: 'w' });
  const showStats = flags.stats ?? Boolean(process.stderr.isTTY);
  const write = (ev: ResultEvent) => {
    if (!ev['matcher-status'] && !flags.matcherStatus) return;
    const line = flags.jsonl ? formatJson(ev) : formatPlain(ev, { noMeta: flags.meta === false });
    process.stdout.write(`${line}\n`);
    out?.write(`${line}\n`);
  };
  const say = (level: 'info' | 'warn', m: string) =>
    console.error(flags.jsonl ? JSON.stringify({ level, msg: m }) : `${level === 'warn' ? '[WRN]' : '[INF]'} ${m}`);
  // Templates the engine does not run, counted by reason and said once at the end.
  const notRun = new Map<string, number>();
  const oob = await interactshFor(flags, templates, say);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const threads = flags.scanThreads ?? 1;
    const scanOptions: Parameters<typeof runScan>[0] = {
      targets,
      templates,
      vars,
      secrets,
      varFiles: true,
      // As nuclei: headless `screenshot` steps write inside the working folder.
      screenshotDir: process.cwd(),
      workflowSource: fileWorkflowSource(),
      cluster: flags.cluster,
      concurrency: flags.concurrency,
      bulkSize: flags.bulkSize,
      rateLimit: flags.rateLimit,
      timeout: flags.timeout,
      retries: flags.retries,
      maxHostErrors: flags.maxHostError,
      matcherStatus: flags.matcherStatus,
      socks5Proxy: flags.proxy,
      sni: flags.sni,
      disableRedirects: flags.disableRedirects,
      attackType: flags.attackType,
      signal: controller.signal,
      resolvers: flags.resolvers?.length ? readResolvers(flags.resolvers) : undefined,
      traceRoots: flags.traceRoots?.length ? flags.traceRoots : undefined,
      tracePort: flags.tracePort,
      // Off by default, as in nuclei: `vigil scan` goes wherever its targets and templates lead.
      egress: flags.restrictLocalNetworkAccess ? { publicOnly: true } : undefined,
      trustedCertificates: certificates,
      allowUnsigned: flags.allowUnsignedTemplates,
      disableUnsigned: flags.disableUnsignedTemplates,
      interactsh: oob.options,
      onResult: write,
      onNotice: (m) => {
        // Summed up after the scan: by reason, and the refused ones in one count.
        if (m.startsWith('skipped template') || m.startsWith('refused template')) return;
        const level = m.startsWith('skipped host') ? 'warn' : 'info';
        say(level, m);
      },
      onTemplateSkipped: (_id, reason) => {
        if (!/trusted key/.test(reason)) notRun.set(reason, (notRun.get(reason) ?? 0) + 1);
      },
      onProgress: showStats
        ? (p) =>
            process.stderr.write(
              `[STATS] ${p.done}/${p.total} done, ${p.requests} requests, ${p.matched} matched, ${p.errors} errors\n`,
            )
        : undefined,
    };
    const oneThread = threads > 1 ? singleThreadReason(scanOptions, threads) : undefined;
    if (oneThread) say('info', `scanning on one thread: ${oneThread}`);
    const stats = await (threads > 1 && !oneThread ? runScanOnThreads(scanOptions, threads) : runScan(scanOptions));
    if (stats.refusedUnsigned > 0) {
      const how = flags.disableUnsignedTemplates
        ? 'no trusted key signed them (-dut)'
        : 'code and javascript templates run only when signed by a trusted key (--trust-certificate adds one; --allow-unsigned-templates runs them anyway)';
      say('warn', `${stats.refusedUnsigned} unsigned template(s) refused: ${how}`);
    }
    if (notRun.size > 0) {
      const total = [...notRun.values()].reduce((a, b) => a + b, 0);
      const why = [...notRun]
        .sort((a, b) => b[1] - a[1])
        .map(([r, n]) => `${n} ${r.replace(/^it /, '')}`)
        .join('; ');
      say('info', `${total} template(s) not run: ${why}`);
    }
    // Per protocol: how many templates ran, how many were left out and why.
    for (const line of formatProtocolSummary(
      protocolSummary(
        templates,
        (t) =>
          signatureRefusal(t, {
            trustedCertificates: certificates,
            allowUnsigned: flags.allowUnsignedTemplates,
            disableUnsigned: flags.disableUnsignedTemplates,
          }) ?? unsupportedReason(t, { workflows: true }),
      ),
    ))
      say('info', `templates by protocol: ${line}`);
    if (showStats) {
      console.error(
        `[INF] scan finished in ${(stats.durationMs / 1000).toFixed(1)}s: ${stats.results} result(s), ${stats.requests} request(s), ` +
          `${stats.skippedHosts} host(s) skipped after max host errors`,
      );
    }
  } finally {
    process.off('SIGINT', onSigint);
    await oob.close?.();
    await closeClients();
    if (out) await new Promise<void>((r) => out!.end(r));
  }
}

export function registerScan(program: Command): void {
  const cmd = program
    .command('scan')
    .description('run nuclei-format templates against targets')
    .option('-u, --target <url>', 'target URL or host (repeatable)', collect)
    .option('-l, --list <file>', 'file with one target per line')
    .option('-t, --templates <path>', 'template file or folder (repeatable)', collect)
    .option('--tags <tags>', 'only templates with any of these tags (comma-separated)', list)
    .option('-s, --severity <list>', 'only templates of these severities (comma-separated)', list)
    .option('-V, --var <key=value>', 'template variable (repeatable)', collect)
    .option('--rate-limit <n>', 'requests per second, 0 = no limit (-rl)', intOption('rate-limit'), 150)
    .option('-c, --concurrency <n>', 'templates run in parallel', intOption('concurrency'), 25)
    .option(
      '--scan-threads <n>',
      'worker threads to split the targets over (templates compiled once, results as on one thread); not with secret files, interactsh or workflows',
      intOption('scan-threads'),
      1,
    )
    .option('--bulk-size <n>', 'hosts per template in parallel (-bs)', intOption('bulk-size'), 25)
    .option('--timeout <seconds>', 'request timeout', intOption('timeout'), 10)
    .option('--retries <n>', 'retries after a network error', intOption('retries'), 1)
    .option('--max-host-error <n>', 'errors before a host is skipped (-mhe)', intOption('max-host-error'), 30)
    .option('-j, --jsonl', 'one JSON object per result')
    .option('-o, --output <file>', 'also write results to this file')
    .option('--matcher-status', 'also print templates that did not match (-ms)')
    .option('--stats', 'print progress on stderr (default when stderr is a terminal)')
    .option('--secret-file <file>', 'secret file with credentials for targets (-sf, repeatable)', collect)
    .option(
      '--templates-dir <dir>',
      'templates folder: base for relative login template paths in secret files (default: each -t folder, then the current directory) and the folder javascript templates may read with nuclei/fs (default: the nuclei-templates checkout holding each -t path)',
    )
    .option('--proxy <url>', 'SOCKS5 proxy, e.g. socks5://127.0.0.1:1080')
    .option('--sni <name>', 'TLS server name to send')
    .option(
      '--no-cluster',
      "send every template's own requests even where templates share one request (clustering is on by default, as in nuclei)",
    )
    .option(
      '-r, --resolvers <list>',
      'DNS resolvers (ip or ip:port, comma-separated, or a file with one per line) for dns templates',
      list,
    )
    .option(
      '--trace-roots <list>',
      "root servers a dns `trace` starts from (ip or ip:port, comma-separated; default IANA's root servers)",
      list,
    )
    .option(
      '--trace-port <port>',
      'port the name servers met during a dns `trace` are asked on (default 53)',
      intOption('--trace-port'),
    )
    .option('--disable-redirects', 'never follow redirects (-dr)')
    .option(
      '--restrict-local-network-access',
      'refuse connections to loopback, private, link-local and other non-public addresses, decided on the address connected to after DNS and on every redirect (-lna)',
    )
    .option('--strict', 'stop when any template cannot be loaded (default: skip it, say why, scan the rest)')
    .addOption(
      new Option('--attack-type <type>', 'payload attack type for every template (-at)').choices([
        'batteringram',
        'pitchfork',
        'clusterbomb',
      ]),
    )
    .option('--no-meta', 'print only the matched URL (-nm)')
    .option(
      '--enable-self-contained',
      'also run self-contained templates, which contact the hosts they name instead of the targets (-esc; off by default, as in nuclei)',
    )
    .option('--exclude-tags <tags>', 'leave out templates having any of these tags (comma-separated, -etags)', list)
    .option(
      '--disable-unsigned-templates',
      'refuse every template no trusted key signed (-dut, as in nuclei; code and javascript templates need a signature anyway)',
    )
    .option(
      '--allow-unsigned-templates',
      'run code and javascript templates no trusted key signed (-aut; Vigil refuses them by default, nuclei never runs unsigned code templates)',
    )
    .option(
      '--trust-certificate <file>',
      "trust templates signed with this template-signing certificate (PEM, as `nuclei -sign` makes), besides ProjectDiscovery's (repeatable; NUCLEI_USER_CERTIFICATE adds one too)",
      collect,
    )
    .option(
      '--interactsh-server <url>',
      'interactsh server for out-of-band checks (-iserver; default: an embedded OAST server when VIGIL_OAST_* is set)',
    )
    .option('--interactsh-token <token>', 'authorization token for the interactsh server (-itoken)')
    .option('--no-interactsh', 'no out-of-band checks: templates using {{interactsh-url}} cannot match (-ni)')
    .option(
      '--interactions-poll-duration <seconds>',
      'how often the interactsh server is polled (default 5)',
      intOption('interactions-poll-duration'),
    )
    .option(
      '--interactions-cooldown-period <seconds>',
      'how long to keep polling after the last request with an interactsh name (default 5)',
      intOption('interactions-cooldown-period'),
    )
    .option(
      '--interactions-eviction <seconds>',
      'how long a request waits for its interaction (default 60)',
      intOption('interactions-eviction'),
    )
    .action(async (flags: ScanFlags) => {
      try {
        await scanAction(flags);
      } catch (err) {
        const { SecretFileError, SecretLoginError } = await import('../engine/index.ts');
        const known = err instanceof UsageError || err instanceof SecretFileError || err instanceof SecretLoginError;
        console.error(`vigil scan: ${known ? (err as Error).message : ((err as Error).stack ?? err)}`);
        // A refused secret file or failed login is not a usage slip: exit 1 (secret file contract).
        const secretProblem = err instanceof SecretFileError || err instanceof SecretLoginError;
        process.exitCode = known && !secretProblem ? 2 : 1;
      }
    });
  // Commander parses only single-letter short flags; translate -rl, -bs, -sf ... first. The root
  // program sees the arguments first (its -V is --version), so translate there, for `scan` only.
  const parseOptions = cmd.parseOptions.bind(cmd);
  cmd.parseOptions = (argv: string[]) => parseOptions(translateShortFlags(argv));
  const rootParse = program.parseOptions.bind(program);
  program.parseOptions = (argv: string[]) => rootParse(argv[0] === 'scan' ? translateShortFlags(argv) : argv);
  // Option('--ms') style double-dash spelling of the same aliases.
  cmd.addOption(new Option('--ms').hideHelp().implies({ matcherStatus: true }));
}

/**
 * Templates that cannot be loaded: like nuclei, skipped with a count and the reasons, and the rest is
 * scanned. With --strict, or when a template named by itself (-t FILE) is invalid, nothing is scanned.
 */
function reportLoadIssues(issues: { file: string; field: string; reason: string }[], flags: ScanFlags): void {
  const explicit = new Set(
    (flags.templates ?? [])
      .filter((t) => {
        try {
          return statSync(t).isFile();
        } catch {
          return false;
        }
      })
      .map((t) => path.resolve(t)),
  );
  const fatal = flags.strict || issues.some((i) => explicit.has(path.resolve(i.file)));
  const files = new Set(issues.map((i) => i.file));
  if (fatal || files.size <= 20) {
    for (const i of issues)
      console.error(`[${fatal ? 'ERR' : 'WRN'}] ${i.file}${i.field ? ` ${i.field}` : ''}: ${i.reason}`);
  }
  if (fatal) throw new UsageError(`${files.size} template(s) could not be loaded; nothing was scanned`);
  // Many: the reasons with their counts (each reason's text without the file-specific quoted parts), then
  // the most frequent of those quoted parts (a missing payload file's name, ...) with their counts.
  if (files.size > 20) {
    const byReason = new Map<string, { n: number; quoted: Map<string, number> }>();
    for (const i of issues) {
      const key = i.reason.replace(/"[^"]*"/g, '"…"').replace(/'[^']*'/g, "'…'");
      const group = byReason.get(key) ?? { n: 0, quoted: new Map<string, number>() };
      group.n++;
      // Each quoted part whole (a double-quoted name, a single-quoted expression), once, cut short when long.
      const parts = new Set(
        i.reason.match(/"[^"]*"|'[^']*'/g)?.map((q) => (q.length > 80 ? `${q.slice(0, 78)}…${q.at(-1)}` : q)),
      );
      const quoted = [...parts].join(' ');
      if (quoted) group.quoted.set(quoted, (group.quoted.get(quoted) ?? 0) + 1);
      byReason.set(key, group);
    }
    for (const [reason, { n, quoted }] of [...byReason].sort((a, b) => b[1].n - a[1].n).slice(0, 10)) {
      const names = [...quoted].sort((a, b) => b[1] - a[1]);
      const shown = names
        .slice(0, 3)
        .map(([q, count]) => `${q} (${count})`)
        .join(', ');
      const more = names.length > 3 ? ` and ${names.length - 3} more` : '';
      console.error(`[WRN] ${n} x ${reason}${names.length ? `: ${shown}${more}` : ''}`);
    }
  }
  console.error(
    `[WRN] ${files.size} template(s) could not be loaded and were skipped; the others are scanned (--strict stops instead)`,
  );
}
