// Starts the OAST server's listeners over one set of sessions, and stops them.
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { OastConfig } from './config.ts';
import { Sessions, DEFAULT_LIMITS } from './sessions.ts';
import { createOastHttpHandler } from './http.ts';
import { startDns } from './dns.ts';
import { startSmtp } from './smtp.ts';
import { startLdap } from './ldap.ts';
import { listenTcp } from './listen.ts';
import type { Interaction } from './protocol.ts';

export interface OastServer {
  domain: string;
  sessions: Sessions;
  /** Ports actually bound (a configured port 0 picks a free one). */
  ports: { http: number; https?: number; dns?: number; smtp?: number; ldap?: number };
  /** The client API's URL on this machine (the HTTP listener). */
  localUrl: string;
  close(): Promise<void>;
}

function closeHttp(s: http.Server): Promise<void> {
  return new Promise((resolve) => {
    s.close(() => resolve());
    s.closeAllConnections();
  });
}

export async function startOast(c: OastConfig, onInteraction?: (i: Interaction) => void): Promise<OastServer> {
  const sessions = new Sessions({ ...DEFAULT_LIMITS, evictAfterMs: c.evictionHours * 3600_000 });
  const closers: (() => Promise<void>)[] = [];
  const handler = createOastHttpHandler({ domain: c.domain, sessions, token: c.token, onInteraction });
  const limit = (s: http.Server) => {
    s.headersTimeout = 10_000;
    s.requestTimeout = 30_000;
    s.maxHeadersCount = 200;
    s.maxConnections = 1000;
    return s;
  };
  try {
    const web = limit(http.createServer({ maxHeaderSize: 32 * 1024 }, handler));
    const ports: OastServer['ports'] = { http: await listenTcp(web, c.http) };
    closers.push(() => closeHttp(web));
    if (c.https) {
      const tls = limit(
        https.createServer(
          { cert: readFileSync(c.cert!), key: readFileSync(c.key!), maxHeaderSize: 32 * 1024 },
          handler,
        ),
      );
      ports.https = await listenTcp(tls, c.https);
      closers.push(() => closeHttp(tls));
    }
    if (c.dns) {
      const d = await startDns({ domain: c.domain, ip: c.ip, sessions, onInteraction }, c.dns);
      ports.dns = d.port;
      closers.push(d.close);
    }
    if (c.smtp) {
      const s = await startSmtp({ domain: c.domain, sessions, onInteraction }, c.smtp);
      ports.smtp = s.port;
      closers.push(s.close);
    }
    if (c.ldap) {
      const l = await startLdap({ sessions, onInteraction }, c.ldap);
      ports.ldap = l.port;
      closers.push(l.close);
    }
    const timer = setInterval(() => sessions.evict(), 60_000);
    timer.unref();
    closers.push(async () => clearInterval(timer));
    const host = ['0.0.0.0', '::'].includes(c.http.host) ? '127.0.0.1' : c.http.host;
    return {
      domain: c.domain,
      sessions,
      ports,
      localUrl: `http://${host.includes(':') ? `[${host}]` : host}:${ports.http}`,
      close: async () => {
        await Promise.all(closers.map((f) => f()));
      },
    };
  } catch (err) {
    await Promise.all(closers.map((f) => f()));
    throw err;
  }
}
