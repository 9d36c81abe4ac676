// The web console (web/, built into web/dist at `npm install`): its files at `/`, and index.html for every
// other page path so deep links work. API paths keep their own 404. Console responses carry a
// Content-Security-Policy that allows no inline script (the build has none).
//
// Delivery: the build writes brotli and gzip copies beside each text file (scripts/build-web.mjs), and
// @fastify/static's preCompressed sends the copy the browser asks for (br before gzip; the file itself
// when it asks for neither or no copy exists), always with `Vary: Accept-Encoding` so caches keep one
// answer per encoding. Hashed build files (assets/) are cached for a year as immutable; the page itself
// (index.html, also for every deep link) is `no-cache`, so a new build is picked up on the next visit.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';

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

/** Paths that belong to the API: never answered with the console page. */
const API_PATH = /^\/(v\d+\/|v\d+$|docs(\/|$)|openapi\.json$|healthz$)/;

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

export const consoleRoutes: FastifyPluginAsync = async (app) => {
  const dist = CONSOLE_DIST;
  await app.register(fastifyStatic, { root: dist, serve: false, preCompressed: true });

  const page = (reply: FastifyReply) => {
    if (!existsSync(path.join(dist, 'index.html'))) {
      return reply
        .code(404)
        .send({ message: 'the console is not built: run `npm run build:web`', code: 'not_found', status: 404 });
    }
    return fileHeaders(reply).header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  };

  app.get('/', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => page(reply));

  app.get('/*', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const urlPath = decodeURIComponent(req.url.split('?')[0]!);
    if (API_PATH.test(urlPath)) return reply.callNotFound();
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
    return page(reply);
  });
};

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
