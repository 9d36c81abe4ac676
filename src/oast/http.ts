// The HTTP (and HTTPS) listener: interactsh's client API (/register, /poll, /deregister) and, for every
// other request, a recorded interaction for each registered id in the Host header, answered with a small
// page that reflects the id (reversed, as interactsh does, so a template can check the fetch came back).
import http from 'node:http';
import { TLSSocket } from 'node:tls';
import { idsInName, type Interaction } from './protocol.ts';
import { OastClientError, type Sessions } from './sessions.ts';

export interface HttpListenerOptions {
  domain: string;
  sessions: Sessions;
  /** Required in the Authorization header of register/poll/deregister when set (interactsh's -token). */
  token?: string;
  tls?: { cert: string | Buffer; key: string | Buffer };
  onInteraction?: (i: Interaction) => void;
}

const MAX_BODY = 64 * 1024;
const API = new Set(['/register', '/poll', '/deregister']);

function json(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The request as text, as it came (head rebuilt from the parsed message, the body as received). */
function rawRequest(req: http.IncomingMessage, body: Buffer): string {
  let head = `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`;
  for (let i = 0; i < req.rawHeaders.length; i += 2) head += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
  return `${head}\r\n${body.toString('latin1')}`;
}

/** Reads the body up to MAX_BODY; longer bodies are cut (recorded) or refused (API calls). */
function readBody(req: http.IncomingMessage): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    let truncated = false;
    req.on('data', (c: Buffer) => {
      if (size + c.length > MAX_BODY) {
        truncated = true;
        if (size < MAX_BODY) parts.push(c.subarray(0, MAX_BODY - size));
        size = MAX_BODY;
        return;
      }
      size += c.length;
      parts.push(c);
    });
    req.on('end', () => resolve({ body: Buffer.concat(parts), truncated }));
    req.on('error', () => resolve({ body: Buffer.concat(parts), truncated: true }));
  });
}

function parseJson(body: Buffer): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8'));
  } catch {
    throw new OastClientError('could not decode json body');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new OastClientError('could not decode json body: expected an object');
  return v as Record<string, unknown>;
}

export function createOastHttpHandler(o: HttpListenerOptions) {
  const api = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    query: URLSearchParams,
    body: Buffer,
  ) => {
    if (o.token !== undefined && req.headers.authorization !== o.token) {
      json(res, 401, { error: 'unauthorized' });
      return;
    }
    try {
      if (path === '/poll') {
        if (req.method !== 'GET') return json(res, 405, { error: 'use GET for /poll' });
        const id = query.get('id');
        const secret = query.get('secret');
        if (!id) return json(res, 400, { error: 'no id specified for poll' });
        if (!secret) return json(res, 400, { error: 'no secret specified for poll' });
        const { data, aesKey } = o.sessions.poll(id, secret);
        return json(res, 200, { data, extra: [], aes_key: aesKey });
      }
      if (req.method !== 'POST') return json(res, 405, { error: `use POST for ${path}` });
      const b = parseJson(body);
      if (path === '/register') {
        o.sessions.register(b['correlation-id'], b['secret-key'], b['public-key']);
        return json(res, 200, { message: 'registration successful' });
      }
      o.sessions.deregister(String(b['correlation-id'] ?? ''), String(b['secret-key'] ?? ''));
      return json(res, 200, { message: 'deregistration successful' });
    } catch (err) {
      if (err instanceof OastClientError) return json(res, 400, { error: err.message });
      return json(res, 500, { error: 'internal error' });
    }
  };

  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    void readBody(req).then(({ body, truncated }) => {
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://x');
      } catch {
        return json(res, 400, { error: 'bad request target' });
      }
      const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
      const onOwnName = host === o.domain || !host.endsWith(`.${o.domain}`);
      if (API.has(url.pathname) && onOwnName) {
        if (truncated) return json(res, 413, { error: `body larger than ${MAX_BODY} bytes` });
        return api(req, res, url.pathname, url.searchParams, body);
      }
      const hits = idsInName(host, (id) => o.sessions.has(id));
      const reflection = hits.length ? [...hits[0]!.id].reverse().join('') : '';
      const page = `<html><head></head><body>${reflection}</body></html>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', server: o.domain });
      res.end(page);
      if (!hits.length) return;
      const raw = rawRequest(req, body);
      const response = `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nServer: ${o.domain}\r\n\r\n${page}`;
      const remote = req.socket.remoteAddress ?? '';
      for (const hit of hits) {
        const i: Interaction = {
          protocol: req.socket instanceof TLSSocket ? 'https' : 'http',
          'unique-id': hit.id,
          'full-id': hit.full,
          'raw-request': raw,
          'raw-response': response,
          'remote-address': remote.replace(/^::ffff:/, ''),
          timestamp: new Date().toISOString(),
        };
        o.sessions.add(i);
        o.onInteraction?.(i);
      }
    });
  };
}
