// The lab: real server software from Debian's packages on 127.0.0.1, scanned by `vigil scan` with real
// corpus templates. Every (template, server) pair below was checked by hand against the server's real
// answers and the template's matchers; `why` says what the template sees. Hits must match (with the
// extracted values, read from the installed software where they are versions); misses are plausible
// pairs (same product family, same paths) that must not match. Run with `npm run test:lab`; it is not part
// of `npm test` because it installs packages and starts a dozen servers.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installMissing, SPECS, startAll, type LabServer } from './servers.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const corpus = path.resolve(root, '../shared/corpus/nuclei-templates/http');
const guard = path.join(root, 'test/helpers/loopback-guard.mjs');

/** What a command prints about its version (some print to stderr, some exit non-zero). */
function versionText(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`;
}

/** Versions as the installed binaries report them, so the expected extractions follow the packages. */
function versions() {
  return {
    nginx: /nginx\/[\d.]+/.exec(versionText('/usr/sbin/nginx', ['-v']))![0],
    apache: /Apache\/[\d.]+ \(Debian\)/.exec(versionText('/usr/sbin/apache2', ['-v']))![0],
    php: versionText('php', ['-r', 'echo PHP_VERSION;']).trim(),
    tinyproxy: `tinyproxy/${/tinyproxy ([\d.]+)/.exec(versionText('/usr/bin/tinyproxy', ['-v']))![1]}`,
  };
}

interface Pair {
  server: string;
  /** Template file under the corpus http/ folder. */
  file: string;
  id: string;
  matcher?: string;
  /** Expected extracted values (as a set), when the template extracts. */
  extracted?: (v: ReturnType<typeof versions>) => string[];
  /** Compare extracted values as comma-separated sets (header lists). */
  asSet?: boolean;
  why: string;
}

// Apache builds its Allow list from a hash table: the order varies between starts, the set does not.
const METHODS = (list: string) => () => [sortList(list)];
const sortList = (list: string) =>
  list
    .split(',')
    .map((m) => m.trim())
    .sort()
    .join(',');

const HITS: Pair[] = [
  // nginx 1.22 with Debian's welcome page and stub_status at /nginx_status.
  {
    server: 'nginx',
    file: 'misconfiguration/nginx/nginx-status.yaml',
    id: 'nginx-status',
    why: 'stub_status answers "Active connections:" at /nginx_status',
  },
  {
    server: 'nginx',
    file: 'technologies/nginx/default-nginx-page.yaml',
    id: 'default-nginx-page',
    why: 'the packaged index.html is titled "Welcome to nginx!"',
  },
  {
    server: 'nginx',
    file: 'technologies/nginx/nginx-version.yaml',
    id: 'nginx-version',
    extracted: (v) => [v.nginx],
    why: 'Server header names nginx with its version',
  },
  {
    server: 'nginx',
    file: 'technologies/tech-detect.yaml',
    id: 'tech-detect',
    matcher: 'nginx',
    why: 'Server: nginx header',
  },
  {
    server: 'nginx',
    file: 'technologies/waf-detect.yaml',
    id: 'waf-detect',
    matcher: 'nginxgeneric',
    why: "the 400 page for a malicious-looking request is nginx's own",
  },
  {
    server: 'nginx',
    file: 'misconfiguration/http-missing-security-headers.yaml',
    id: 'http-missing-security-headers',
    matcher: 'x-frame-options',
    why: 'the default server sends no X-Frame-Options',
  },
  // varnish 7.1 in front of the lab's nginx.
  {
    server: 'varnish',
    file: 'technologies/waf-detect.yaml',
    id: 'waf-detect',
    matcher: 'varnish',
    why: 'varnish adds Via: 1.1 varnish and X-Varnish headers',
  },
  {
    server: 'varnish',
    file: 'technologies/nginx/nginx-version.yaml',
    id: 'nginx-version',
    extracted: (v) => [v.nginx],
    why: "varnish passes the backend's Server header through",
  },
  {
    server: 'varnish',
    file: 'technologies/nginx/default-nginx-page.yaml',
    id: 'default-nginx-page',
    why: "the cached page is nginx's welcome page",
  },
  // apache2 2.4 with mod_php, mod_status, mod_info and Debian's default page.
  {
    server: 'apache2',
    file: 'exposures/configs/phpinfo-files.yaml',
    id: 'phpinfo-files',
    extracted: (v) => [v.php],
    why: '/phpinfo.php prints "PHP Version" and the version is extracted',
  },
  {
    server: 'apache2',
    file: 'miscellaneous/http-trace.yaml',
    id: 'http-trace',
    matcher: 'trace-request',
    why: 'TraceEnable defaults to on: TRACE echoes the request',
  },
  {
    server: 'apache2',
    file: 'miscellaneous/options-method.yaml',
    id: 'options-method',
    asSet: true,
    extracted: METHODS('GET,POST,OPTIONS,HEAD,TRACE'),
    why: 'OPTIONS answers Allow with the enabled methods',
  },
  {
    server: 'apache2',
    file: 'misconfiguration/apache/apache-server-status.yaml',
    id: 'apache-server-status',
    why: 'mod_info at /server-info (the first path) shows "Apache Server Information" and "Server Version"',
  },
  {
    server: 'apache2',
    file: 'technologies/apache/apache-detect.yaml',
    id: 'apache-detect',
    extracted: (v) => [v.apache],
    why: 'Server: Apache/2.4.x (Debian)',
  },
  {
    server: 'apache2',
    file: 'technologies/apache/default-apache-test-all.yaml',
    id: 'default-apache-test-all',
    extracted: (v) => [v.apache],
    why: "Debian's default page title and the Server header",
  },
  {
    server: 'apache2',
    file: 'technologies/apache/default-apache2-page.yaml',
    id: 'default-apache2-page',
    why: '"Apache2 Debian Default Page" title',
  },
  {
    server: 'apache2',
    file: 'technologies/waf-detect.yaml',
    id: 'waf-detect',
    matcher: 'apachegeneric',
    why: "Apache's own 403/404 page wording",
  },
  // lighttpd 1.4 serving a static page.
  {
    server: 'lighttpd',
    file: 'miscellaneous/options-method.yaml',
    id: 'options-method',
    asSet: true,
    extracted: METHODS('OPTIONS, GET, HEAD, POST'),
    why: 'lighttpd answers OPTIONS with its Allow list',
  },
  {
    server: 'lighttpd',
    file: 'technologies/tech-detect.yaml',
    id: 'tech-detect',
    matcher: 'lighttpd',
    why: 'Server: lighttpd/1.4.x',
  },
  // Prometheus 2.42 scraping itself.
  {
    server: 'prometheus',
    file: 'exposures/configs/prometheus-metrics.yaml',
    id: 'prometheus-metrics',
    why: '/metrics exposes go_gc_duration_seconds and friends',
  },
  {
    server: 'prometheus',
    file: 'exposures/logs/go-pprof-debug.yaml',
    id: 'go-pprof-debug',
    why: 'net/http/pprof is mounted: /debug/pprof/heap answers a heap profile',
  },
  {
    server: 'prometheus',
    file: 'cves/2019/CVE-2019-11248.yaml',
    id: 'CVE-2019-11248',
    why: 'the pprof index "Types of profiles available" is reachable without auth',
  },
  {
    server: 'prometheus',
    file: 'miscellaneous/options-method.yaml',
    id: 'options-method',
    asSet: true,
    extracted: METHODS('GET, OPTIONS'),
    why: 'the UI router answers OPTIONS with Allow',
  },
  {
    server: 'prometheus',
    file: 'misconfiguration/prometheus/prometheus-flags.yaml',
    id: 'prometheus-flags',
    why: '/api/v1/status/flags lists the command-line flags',
  },
  {
    server: 'prometheus',
    file: 'misconfiguration/prometheus/prometheus-unauth.yaml',
    id: 'prometheus-unauth',
    why: '/api/v1/status/config shows the YAML with global:, scrape_configs: and scrape_interval',
  },
  {
    server: 'prometheus',
    file: 'technologies/fingerprinthub-web-fingerprints.yaml',
    id: 'fingerprinthub-web-fingerprints',
    matcher: 'prometheus',
    why: "the classic UI page carries Prometheus's markers",
  },
  // Alertmanager 0.25.
  {
    server: 'alertmanager',
    file: 'misconfiguration/unauthenticated-alert-manager.yaml',
    id: 'unauthenticated-alert-manager',
    why: 'the UI answers without auth with "Alertmanager" in its title',
  },
  {
    server: 'alertmanager',
    file: 'exposures/configs/debug-vars.yaml',
    id: 'debug-vars',
    why: 'expvar at /debug/vars shows memstats and cmdline',
  },
  {
    server: 'alertmanager',
    file: 'technologies/favicon-detect.yaml',
    id: 'favicon-detect',
    matcher: 'prometheus-time-series-collection-and-processing-server',
    extracted: () => ['-1399433489'],
    why: "Alertmanager ships Prometheus's favicon: its mmh3 hash is Prometheus's",
  },
  {
    server: 'alertmanager',
    file: 'exposures/configs/prometheus-metrics.yaml',
    id: 'prometheus-metrics',
    why: 'its own /metrics',
  },
  // Node exporter 1.5.
  {
    server: 'node-exporter',
    file: 'misconfiguration/prometheus/prometheus-exporter.yaml',
    id: 'prometheus-exporter',
    extracted: () => ['Node Exporter'],
    why: 'the landing page title names the exporter',
  },
  {
    server: 'node-exporter',
    file: 'exposures/configs/debug-vars.yaml',
    id: 'debug-vars',
    why: 'expvar at /debug/vars',
  },
  {
    server: 'node-exporter',
    file: 'exposures/configs/prometheus-metrics.yaml',
    id: 'prometheus-metrics',
    why: '/metrics',
  },
  {
    server: 'node-exporter',
    file: 'exposures/logs/go-pprof-debug.yaml',
    id: 'go-pprof-debug',
    why: 'pprof mounted on the default mux',
  },
  // Pushgateway 1.5.
  {
    server: 'pushgateway',
    file: 'exposed-panels/prometheus-pushgateway-exposed-panel.yaml',
    id: 'prometheus-pushgateway-exposed-panel',
    why: 'the UI title is "Prometheus Pushgateway"',
  },
  {
    server: 'pushgateway',
    file: 'exposures/configs/prometheus-metrics.yaml',
    id: 'prometheus-metrics',
    why: '/metrics',
  },
  { server: 'pushgateway', file: 'exposures/logs/go-pprof-debug.yaml', id: 'go-pprof-debug', why: '/debug/pprof/heap' },
  { server: 'pushgateway', file: 'cves/2019/CVE-2019-11248.yaml', id: 'CVE-2019-11248', why: 'pprof index reachable' },
  // HAProxy 2.6 with its stats page.
  {
    server: 'haproxy',
    file: 'misconfiguration/haproxy-status.yaml',
    id: 'haproxy-status',
    why: '/haproxy?stats shows "Statistics Report for HAProxy"',
  },
  // Syncthing 1.19 GUI.
  {
    server: 'syncthing',
    file: 'misconfiguration/syncthing-dashboard.yaml',
    id: 'syncthing-dashboard',
    why: 'the GUI answers without a password with "Syncthing" in its title',
  },
  {
    server: 'syncthing',
    file: 'misconfiguration/xss-deprecated-header.yaml',
    id: 'xss-deprecated-header',
    extracted: () => ['1; mode=block'],
    why: 'the GUI sends X-XSS-Protection: 1; mode=block',
  },
  {
    server: 'syncthing',
    file: 'technologies/tech-detect.yaml',
    id: 'tech-detect',
    matcher: 'angularjs',
    why: 'the GUI is AngularJS (ng-app and angular.js)',
  },
  // tinyproxy 1.11 (a request for itself gets its error page).
  {
    server: 'tinyproxy',
    file: 'technologies/tinyproxy-detect.yaml',
    id: 'tinyproxy-detect',
    extracted: (v) => [v.tinyproxy],
    why: 'Server: tinyproxy/1.11.x on its error page',
  },
  {
    server: 'tinyproxy',
    file: 'technologies/fingerprinthub-web-fingerprints.yaml',
    id: 'fingerprinthub-web-fingerprints',
    matcher: 'tinyproxy',
    why: 'the error page names tinyproxy',
  },
];

const MISSES: Pair[] = [
  {
    server: 'prometheus',
    file: 'misconfiguration/prometheus/prometheus-config.yaml',
    id: 'prometheus-config',
    why: 'the template wants "status": "success" with a space; Prometheus writes compact JSON',
  },
  {
    server: 'prometheus',
    file: 'misconfiguration/prometheus/prometheus-targets.yaml',
    id: 'prometheus-targets',
    why: 'same compact-JSON reason, on /api/v1/targets',
  },
  {
    server: 'prometheus',
    file: 'exposed-panels/prometheus-exposed-panel.yaml',
    id: 'prometheus-exposed-panel',
    why: '/graph is a 301 to /graph/ and the template does not follow redirects',
  },
  {
    server: 'node-exporter',
    file: 'misconfiguration/node-exporter-metrics.yaml',
    id: 'node-exporter-metrics',
    why: 'needs node_cooling_device metrics; a machine without cooling devices has none',
  },
  {
    server: 'lighttpd',
    file: 'technologies/default-lighttpd-page.yaml',
    id: 'lighttpd-default',
    why: "the lab serves its own index page, not Debian's placeholder",
  },
  {
    server: 'lighttpd',
    file: 'misconfiguration/apache/apache-server-status.yaml',
    id: 'apache-server-status',
    why: "lighttpd's /server-status is not Apache's and /server-info is absent",
  },
  {
    server: 'apache2',
    file: 'technologies/nginx/nginx-version.yaml',
    id: 'nginx-version',
    why: 'Server header is Apache',
  },
  {
    server: 'apache2',
    file: 'misconfiguration/server-status.yaml',
    id: 'server-status',
    why: 'Debian\'s page is not titled "ServerStatus"',
  },
  {
    server: 'nginx',
    file: 'technologies/apache/apache-detect.yaml',
    id: 'apache-detect',
    why: 'Server header is nginx',
  },
  {
    server: 'nginx',
    file: 'exposures/configs/phpinfo-files.yaml',
    id: 'phpinfo-files',
    why: 'no PHP behind this nginx: the phpinfo paths are 404s',
  },
  { server: 'nginx', file: 'miscellaneous/http-trace.yaml', id: 'http-trace', why: 'nginx refuses TRACE with 405' },
  {
    server: 'nginx',
    file: 'misconfiguration/haproxy-status.yaml',
    id: 'haproxy-status',
    why: 'no stats page on nginx',
  },
  {
    server: 'varnish',
    file: 'misconfiguration/unauthenticated-varnish-cache-purge.yaml',
    id: 'unauthenticated-varnish-cache-purge',
    why: 'the default VCL has no PURGE handling: the request reaches nginx, which answers 405',
  },
  {
    server: 'prometheus',
    file: 'misconfiguration/syncthing-dashboard.yaml',
    id: 'syncthing-dashboard',
    why: 'another Go web UI, not Syncthing',
  },
];

type Event = Record<string, unknown> & { 'template-id': string; 'matched-at'?: string; host?: string };

describe.skipIf(!existsSync(corpus))('lab: corpus templates against Debian-packaged servers', () => {
  let dir: string;
  let servers: Map<string, LabServer>;
  let events: Event[] = [];
  let stderr = '';

  beforeAll(async () => {
    installMissing(SPECS);
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-lab-'));
    servers = await startAll(dir);
    const files = [...new Set([...HITS, ...MISSES].map((p) => path.join(corpus, p.file)))];
    const targets = [...servers.values()].map((s) => s.url);
    const args = [
      path.join(root, 'bin/vigil.mjs'),
      'scan',
      '-j',
      '-rl',
      '0',
      '--timeout',
      '5',
      '--retries',
      '0',
      ...files.flatMap((f) => ['-t', f]),
      ...targets.flatMap((u) => ['-u', u]),
    ];
    const log = path.join(dir, 'guard.log');
    const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        args,
        {
          cwd: root,
          timeout: 240_000,
          maxBuffer: 64 * 1024 * 1024,
          env: { ...process.env, NODE_OPTIONS: `--import=${guard}`, VIGIL_GUARD_LOG: log },
        },
        (err, stdout, err2) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr: err2 }),
      );
    });
    stderr = out.stderr;
    if (out.code !== 0) throw new Error(`vigil scan failed (${out.code}): ${out.stderr.slice(-2000)}`);
    events = out.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Event);
    const strays = existsSync(log) ? readFileSync(log, 'utf8').trim() : '';
    if (strays) throw new Error(`the scan reached beyond 127.0.0.1:\n${strays}`);
  }, 600_000);

  afterAll(async () => {
    await Promise.all([...(servers?.values() ?? [])].map((s) => s.stop()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const eventsFor = (p: Pair) => {
    const port = new URL(servers.get(p.server)!.url).port;
    return events.filter(
      (e) =>
        e['template-id'] === p.id &&
        new URL(String(e['matched-at'] ?? e.host)).port === port &&
        (p.matcher === undefined || e['matcher-name'] === p.matcher),
    );
  };

  it('finds every hand-verified hit, with its extracted values, and none of the misses', () => {
    const v = versions();
    const missing: string[] = [];
    for (const p of HITS) {
      const found = eventsFor(p);
      if (found.length === 0) {
        missing.push(`${p.id}${p.matcher ? `:${p.matcher}` : ''} on ${p.server} (${p.why})`);
        continue;
      }
      if (p.extracted) {
        const want = new Set(p.extracted(v));
        const ok = found.some((e) => {
          const got = new Set(
            ((e['extracted-results'] as string[] | undefined) ?? []).map((x) => (p.asSet ? sortList(x) : x.trim())),
          );
          return got.size === want.size && [...want].every((x) => got.has(x));
        });
        if (!ok)
          missing.push(
            `${p.id} on ${p.server}: extracted ${JSON.stringify(found.map((e) => e['extracted-results']))}, want ${JSON.stringify([...want])}`,
          );
      }
    }
    const falsePositives = MISSES.filter((p) => eventsFor(p).length > 0).map(
      (p) => `${p.id} on ${p.server} (should not match: ${p.why})`,
    );
    const hits = HITS.length - missing.length;
    console.log(`lab: ${hits}/${HITS.length} hits, ${falsePositives.length} false positives`);
    expect({ missing, falsePositives }, stderr.slice(-1500)).toEqual({ missing: [], falsePositives: [] });
    expect(HITS.length).toBeGreaterThanOrEqual(40);
    expect(MISSES.length).toBeGreaterThanOrEqual(10);
    expect(new Set(HITS.map((p) => p.server)).size).toBeGreaterThanOrEqual(6);
  });
});
