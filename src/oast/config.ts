// The OAST server's settings, from the environment (vigil serve, vigil scan's embedded server):
//   VIGIL_OAST_DOMAIN  the domain it is authoritative for (interactions are <id>.<domain>)      required
//   VIGIL_OAST_IP      the public address every name under the domain resolves to               required
//   VIGIL_OAST_HTTP    listen address of the HTTP listener and client API (host:port)          required
//   VIGIL_OAST_HTTPS   listen address of HTTPS (with VIGIL_OAST_CERT and VIGIL_OAST_KEY, PEM files)
//   VIGIL_OAST_DNS     listen address of DNS (UDP and TCP), e.g. 0.0.0.0:53
//   VIGIL_OAST_SMTP    listen address of SMTP, e.g. 0.0.0.0:25
//   VIGIL_OAST_LDAP    listen address of LDAP, e.g. 0.0.0.0:389
//   VIGIL_OAST_TOKEN   a token clients must send (Authorization header), as interactsh's -token
//   VIGIL_OAST_EVICTION_HOURS  a client nobody polls for this long is forgotten (default 24)
import net from 'node:net';
import { parseListen, type ListenAddress } from './listen.ts';

export interface OastConfig {
  domain: string;
  ip: string;
  http: ListenAddress;
  https?: ListenAddress;
  cert?: string;
  key?: string;
  dns?: ListenAddress;
  smtp?: ListenAddress;
  ldap?: ListenAddress;
  token?: string;
  evictionHours: number;
}

const DOMAIN = /^(?=.{1,200}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The configuration, undefined when VIGIL_OAST_DOMAIN is unset; throws naming the variable that is wrong. */
export function oastConfigFromEnv(env: Record<string, string | undefined>): OastConfig | undefined {
  const domain = env.VIGIL_OAST_DOMAIN?.trim().toLowerCase().replace(/\.$/, '');
  if (!domain) return undefined;
  if (!DOMAIN.test(domain)) throw new Error(`VIGIL_OAST_DOMAIN: "${domain}" is not a domain name`);
  const ip = env.VIGIL_OAST_IP?.trim() ?? '';
  if (!net.isIP(ip))
    throw new Error('VIGIL_OAST_IP: set the public IPv4 or IPv6 address names under the domain resolve to');
  if (!env.VIGIL_OAST_HTTP) throw new Error('VIGIL_OAST_HTTP: set the HTTP listen address (e.g. 0.0.0.0:80)');
  const opt = (name: string) => (env[name]?.trim() ? parseListen(env[name]!, name) : undefined);
  const https = opt('VIGIL_OAST_HTTPS');
  if (https && (!env.VIGIL_OAST_CERT || !env.VIGIL_OAST_KEY))
    throw new Error('VIGIL_OAST_HTTPS needs VIGIL_OAST_CERT and VIGIL_OAST_KEY (PEM files)');
  const hours = env.VIGIL_OAST_EVICTION_HOURS ? Number(env.VIGIL_OAST_EVICTION_HOURS) : 24;
  if (!(hours > 0 && hours <= 24 * 90))
    throw new Error('VIGIL_OAST_EVICTION_HOURS: use a number of hours from 1 to 2160');
  return {
    domain,
    ip,
    http: parseListen(env.VIGIL_OAST_HTTP, 'VIGIL_OAST_HTTP'),
    https,
    cert: env.VIGIL_OAST_CERT,
    key: env.VIGIL_OAST_KEY,
    dns: opt('VIGIL_OAST_DNS'),
    smtp: opt('VIGIL_OAST_SMTP'),
    ldap: opt('VIGIL_OAST_LDAP'),
    token: env.VIGIL_OAST_TOKEN || undefined,
    evictionHours: hours,
  };
}
