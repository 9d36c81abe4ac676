// The web console (web/, built into web/dist at `npm install`): its files at `/`, and index.html for every
// other page path so deep links work. API paths keep their own 404. Console responses carry a
// Content-Security-Policy that allows no inline script (the build has none).
//
// Delivery: the build writes brotli and gzip copies beside each text file (scripts/build-web.mjs), and
// @fastify/static's preCompressed sends the copy the browser asks for (br before gzip; the file itself
// when it asks for neither or no copy exists), always with `Vary: Accept-Encoding` so caches keep one
// answer per encoding. Hashed build files (assets/) are cached for a year as immutable; the page itself
// (index.html, also for every deep link) is `no-cache`, so a new build is picked up on the next visit.
//
// Per-page copies: the build also writes pages/<name>.html for each page address (listed in pages.json),
// index.html plus modulepreload links for that page's chunks, so the browser loads the page's code in
// parallel with the main bundle rather than in a second wave after it has run. The copy is chosen from
// the address alone (the path is never written into the answer); a page behind sign-in gets its copy only
// when the request carries a session cookie (else the sign-in page will show, whose code is in the main
// bundle, and preloading the other page would waste bytes). Hence `Vary: Cookie` on the page.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { isApiPath, requestPath } from '../shared/api-path.ts';

export const CONSOLE_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Mantine and CodeMirror set element styles at run time; scripts stay limited to our own files.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function secureHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer');
}

/** A console file's answer: the security headers, and one cached copy per encoding. */
function fileHeaders(reply: FastifyReply): FastifyReply {
  return secureHeaders(reply).header('vary', 'accept-encoding');
}

/** A page address of the build's pages.json, as a matcher. */
interface PageCopy {
  file: string;
  signedIn: boolean;
  /** Static segments 2 points, parameters 1: the most specific pattern wins (/scans/new over /scans/$id). */
  score: number;
  re: RegExp;
}

/**
 * The build's per-page copies (pages.json beside index.html); none when the build has no such list or
 * names a file outside pages/ (then every address gets index.html, as before).
 */
export function loadPageCopies(dist: string): PageCopy[] {
  let listed: unknown;
  try {
    listed = JSON.parse(readFileSync(path.join(dist, 'pages.json'), 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(listed)) return [];
  const copies: PageCopy[] = [];
  for (const p of listed as { path?: unknown; file?: unknown; signedIn?: unknown }[]) {
    if (typeof p.path !== 'string' || typeof p.file !== 'string' || !/^pages\/[\w-]+\.html$/.test(p.file)) continue;
    if (!isFile(path.join(dist, p.file))) continue;
    const segments = p.path.split('/').filter(Boolean);
    const re = new RegExp(
      '^/' +
        segments.map((s) => (s.startsWith('$') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/') +
        '$',
    );
    const score = segments.reduce((n, s) => n + (s.startsWith('$') ? 1 : 2), 0);
    copies.push({ file: p.file, signedIn: p.signedIn !== false, score, re });
  }
  // Most specific first; among equals the list's order.
  return copies.sort((a, b) => b.score - a.score);
}

/** The file to send for a page address: its per-page copy when there is one that applies, else index.html. */
export function pageFile(copies: PageCopy[], urlPath: string, hasSession: boolean): string {
  const p = urlPath.length > 1 ? urlPath.replace(/\/+$/, '') : urlPath;
  const hit = copies.find((c) => c.re.test(p));
  return hit && (hasSession || !hit.signedIn) ? hit.file : 'index.html';
}

export const consoleRoutes: FastifyPluginAsync = async (app) => {
  const dist = CONSOLE_DIST;
  await app.register(fastifyStatic, { root: dist, serve: false, preCompressed: true });
  const copies = loadPageCopies(dist);

  const page = (req: FastifyRequest, reply: FastifyReply) => {
    if (!existsSync(path.join(dist, 'index.html'))) {
      return reply
        .code(404)
        .send({ message: 'the console is not built: run `npm run build:web`', code: 'not_found', status: 404 });
    }
    const file = pageFile(copies, req.url.split('?')[0]!, Boolean(req.cookies?.[SESSION_COOKIE]));
    return fileHeaders(reply)
      .header('vary', 'accept-encoding, cookie')
      .header('cache-control', 'no-cache')
      .sendFile(file, { cacheControl: false });
  };

  app.get('/', { config: { public: true, consoleFile: true }, schema: { hide: true } }, async (req, reply) =>
    page(req, reply),
  );

  app.get('/*', { config: { public: true, consoleFile: true }, schema: { hide: true } }, async (req, reply) => {
    const urlPath = requestPath(req.url);
    if (isApiPath(urlPath)) return reply.callNotFound();
    const rel = urlPath.replace(/^\/+/, '');
    // Build files (assets/<name>.<ext>) share the prefix with the console's Assets pages (/assets/<id>).
    if (/^assets\/[^/]+\.[a-z0-9]+$/i.test(rel)) {
      // Hashed file names: cached for good. A missing asset is a 404, not the page; the compressed copies
      // are reached through Accept-Encoding only, never by their own names.
      if (/\.(br|gz)$/.test(rel) || !isFile(path.join(dist, rel))) return reply.callNotFound();
      return fileHeaders(reply).sendFile(rel, { maxAge: 365 * 86_400_000, immutable: true });
    }
    if (/^[\w.-]+\.(svg|ico|png|txt|webmanifest)$/.test(rel) && isFile(path.join(dist, rel))) {
      return fileHeaders(reply).sendFile(rel);
    }
    return page(req, reply);
  });
};

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
