// http_probe: what a web service on host:port answers: status, title, server, length, technologies,
// favicon hash, the redirect chain and the names of the TLS certificate. Connections go to the address
// discovery resolved (the Host header and SNI carry the name), so custom resolvers are honoured.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { TLSSocket } from 'node:tls';
import { faviconHash } from './favicon.ts';
import type { ConnectGuard } from '../engine/index.ts';
import type { HttpInfo } from './types.ts';

export interface ProbeOptions {
  timeoutMs: number;
  followRedirects: boolean;
  maxRedirects?: number;
  /** Address of another host met in a redirect (undefined: not resolvable, the chain stops). */
  lookup: (host: string) => Promise<string | undefined>;
  /** Largest body read, bytes. */
  maxBody?: number;
  /** Decides each connection (every redirect hop and the favicon) on the address it goes to. */
  guard?: ConnectGuard;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  certNames: string[];
}

const PLAIN_FIRST = new Set([80, 81, 591, 2080, 3000, 5000, 8000, 8008, 8080, 8081, 8888, 9000]);

/** Probes host:port (connecting to ip); undefined when no HTTP service answers. */
export async function probeHttp(
  host: string,
  ip: string,
  port: number,
  opts: ProbeOptions,
): Promise<HttpInfo | undefined> {
  const order: ('http' | 'https')[] = PLAIN_FIRST.has(port) ? ['http', 'https'] : ['https', 'http'];
  for (const scheme of order) {
    const url = `${scheme}://${hostForUrl(host)}${(scheme === 'http' && port === 80) || (scheme === 'https' && port === 443) ? '' : `:${port}`}/`;
    const info = await probeUrl(url, ip, opts).catch(() => undefined);
    if (info) return info;
  }
  return undefined;
}

const hostForUrl = (h: string) => (net.isIPv6(h) ? `[${h}]` : h);

async function probeUrl(start: string, ip: string, opts: ProbeOptions): Promise<HttpInfo> {
  const chain: { url: string; status_code: number }[] = [];
  let url = new URL(start);
  let addr = ip;
  const firstHost = url.hostname;
  let ans = await fetchOnce(url, addr, opts);
  let certNames = ans.certNames;
  const max = opts.maxRedirects ?? 10;
  while (opts.followRedirects && ans.status >= 300 && ans.status < 400 && ans.headers.location && chain.length < max) {
    chain.push({ url: url.href, status_code: ans.status });
    let next: URL;
    try {
      next = new URL(String(ans.headers.location), url);
    } catch {
      break;
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') break;
    if (next.hostname !== url.hostname) {
      const nextAddr = net.isIP(next.hostname.replace(/^\[|\]$/g, ''))
        ? next.hostname.replace(/^\[|\]$/g, '')
        : await opts.lookup(next.hostname);
      if (!nextAddr) break;
      addr = nextAddr;
    }
    url = next;
    try {
      ans = await fetchOnce(url, addr, opts);
    } catch {
      break;
    }
    if (url.hostname === firstHost && ans.certNames.length) certNames = ans.certNames;
  }
  chain.push({ url: url.href, status_code: ans.status });
  const body = ans.body.toString('utf8');
  const favicon = await faviconOf(url, addr, body, opts);
  return {
    url: start,
    scheme: start.startsWith('https') ? 'https' : 'http',
    status_code: ans.status,
    title: titleOf(body),
    webserver: String(ans.headers.server ?? ''),
    content_length:
      ans.headers['content-length'] !== undefined && /^\d+$/.test(String(ans.headers['content-length']))
        ? Number(ans.headers['content-length'])
        : ans.body.length,
    technologies: technologiesOf(ans.headers, body),
    favicon,
    chain_status_codes: chain.map((c) => c.status_code),
    chain,
    redirect_location: chain.length > 1 ? url.href : '',
    tls_names: certNames,
  };
}

function fetchOnce(url: URL, ip: string, opts: ProbeOptions): Promise<Answer> {
  const isHttps = url.protocol === 'https:';
  const lib = isHttps ? https : http;
  const max = opts.maxBody ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    try {
      opts.guard?.precheck(ip, Number(url.port || (isHttps ? 443 : 80)));
    } catch (err) {
      return reject(err);
    }
    let response: http.IncomingMessage | undefined;
    const req = lib.request(
      url,
      {
        method: 'GET',
        headers: { 'User-Agent': 'Mozilla/5.0 (compatible; vigil-discovery)', Accept: '*/*', Connection: 'close' },
        agent: false,
        timeout: opts.timeoutMs,
        rejectUnauthorized: false,
        servername: net.isIP(url.hostname) ? undefined : url.hostname,
        // Every name goes to the address discovery resolved.
        lookup: ((_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) => {
          const family = net.isIPv6(ip) ? 6 : 4;
          if (o?.all) cb(null, [{ address: ip, family }]);
          else cb(null, ip, family);
        }) as never,
      },
      (res) => {
        response = res;
        const certNames = isHttps ? namesOf((res.socket as TLSSocket).getPeerCertificate?.()) : [];
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < max) chunks.push(c.subarray(0, max - size));
          size += c.length;
          if (size >= max) res.destroy();
        });
        const done = () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), certNames });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    // A server that drips its answer byte by byte never trips the idle timeout: the whole exchange has a
    // deadline too.
    // Past it, what arrived of the body is kept.
    const deadline = setTimeout(
      () => (response ? response.destroy() : req.destroy(new Error('took too long'))),
      opts.timeoutMs * 3,
    );
    req.on('close', () => clearTimeout(deadline));
    req.on('error', reject);
    req.end();
  });
}

export function namesOf(cert: { subject?: { CN?: string | string[] }; subjectaltname?: string } | undefined): string[] {
  if (!cert) return [];
  const names = new Set<string>();
  const cn = cert.subject?.CN;
  for (const c of Array.isArray(cn) ? cn : cn ? [cn] : []) names.add(c.toLowerCase());
  for (const part of (cert.subjectaltname ?? '').split(',')) {
    const m = /^\s*DNS:(.+)$/.exec(part);
    if (m) names.add(m[1]!.trim().toLowerCase());
  }
  return [...names];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function titleOf(body: string): string {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body.slice(0, 512 * 1024));
  if (!m) return '';
  return m[1]!
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
      if (e[0] === '#') {
        const code = e[1]?.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : all;
      }
      return ENTITIES[e.toLowerCase()] ?? all;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** Technologies named by the response itself: server and framework headers, the generator meta tag. */
export function technologiesOf(headers: http.IncomingHttpHeaders, body: string): string[] {
  const out = new Set<string>();
  const product = (v: unknown) =>
    String(v ?? '')
      .split(/[\s,;]/)[0]!
      .trim();
  const server = product(headers.server);
  if (server) out.add(server.split('/')[0]!.replace(/^microsoft-/i, 'Microsoft-'));
  for (const p of String(headers['x-powered-by'] ?? '').split(',')) {
    const name = product(p).split('/')[0]!;
    if (name) out.add(name);
  }
  if (headers['x-aspnet-version']) out.add('ASP.NET');
  const gen = /<meta[^>]+name=["']generator["'][^>]+content=["']([^"']+)["']/i.exec(body.slice(0, 256 * 1024));
  if (gen) out.add(gen[1]!.trim().split(/\s+\d/)[0]!);
  return [...out];
}

async function faviconOf(page: URL, ip: string, body: string, opts: ProbeOptions): Promise<string> {
  const link = /<link[^>]+rel=["'][^"']*icon[^"']*["'][^>]*>/i.exec(body.slice(0, 256 * 1024))?.[0];
  const href = link ? /href=["']([^"']+)["']/i.exec(link)?.[1] : undefined;
  let iconUrl: URL;
  try {
    iconUrl = new URL(href ?? '/favicon.ico', page);
  } catch {
    return '';
  }
  if (iconUrl.hostname !== page.hostname || (iconUrl.protocol !== 'http:' && iconUrl.protocol !== 'https:')) return '';
  try {
    const ans = await fetchOnce(iconUrl, ip, opts);
    if (ans.status !== 200 || ans.body.length === 0) return '';
    return String(faviconHash(ans.body));
  } catch {
    return '';
  }
}
