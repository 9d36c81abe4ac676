// tls_scan: the certificate a TLS service presents (subject, SANs, issuer, validity) and the protocol
// versions it accepts, each tried on its own connection.
import type tls from 'node:tls';
import net from 'node:net';
import { dialTls, type ConnectGuard } from '../engine/index.ts';
import { namesOf } from './http-probe.ts';
import type { TlsInfo } from './types.ts';

const VERSIONS: tls.SecureVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];

function handshake(
  host: string,
  ip: string,
  port: number,
  timeoutMs: number,
  version: tls.SecureVersion | undefined,
  guard: ConnectGuard | undefined,
): Promise<tls.TLSSocket | undefined> {
  return new Promise((resolve) => {
    const sock = dialTls(guard, {
      host: ip,
      port,
      servername: net.isIP(host) ? undefined : host,
      rejectUnauthorized: false,
      ...(version ? { minVersion: version, maxVersion: version } : {}),
      // Old versions need the legacy ciphers and security level to be offered at all.
      ...(version === 'TLSv1' || version === 'TLSv1.1' ? { ciphers: 'DEFAULT:@SECLEVEL=0' } : {}),
    });
    const timer = setTimeout(() => {
      sock.destroy();
      resolve(undefined);
    }, timeoutMs);
    sock.once('secureConnect', () => {
      clearTimeout(timer);
      resolve(sock);
    });
    sock.once('error', () => {
      clearTimeout(timer);
      sock.destroy();
      resolve(undefined);
    });
  });
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Undefined when the port does not speak TLS (or the guard refuses the address). */
export async function scanTls(
  host: string,
  ip: string,
  port: number,
  timeoutMs: number,
  guard?: ConnectGuard,
): Promise<TlsInfo | undefined> {
  const sock = await handshake(host, ip, port, timeoutMs, undefined, guard);
  if (!sock) return undefined;
  const cert = sock.getPeerCertificate();
  const version = sock.getProtocol() ?? undefined;
  sock.destroy();
  const versions: string[] = [];
  for (const v of VERSIONS) {
    const s = await handshake(host, ip, port, timeoutMs, v, guard);
    if (s) {
      versions.push(v);
      s.destroy();
    }
  }
  const notAfter = cert.valid_to ? new Date(cert.valid_to) : undefined;
  const names = namesOf(cert);
  const subjectAn = (cert.subjectaltname ?? '')
    .split(',')
    .map((p) => /^\s*DNS:(.+)$/.exec(p)?.[1]?.trim().toLowerCase())
    .filter((x): x is string => !!x);
  const issuerText = JSON.stringify(cert.issuer ?? {});
  return {
    host,
    port,
    version,
    versions,
    subject_cn: one(cert.subject?.CN),
    subject_org: one(cert.subject?.O),
    subject_an: subjectAn,
    issuer_cn: one(cert.issuer?.CN),
    issuer_org: one(cert.issuer?.O),
    serial_number: cert.serialNumber,
    not_before: cert.valid_from ? new Date(cert.valid_from).toISOString() : undefined,
    not_after: notAfter?.toISOString(),
    expired: notAfter ? notAfter.getTime() < Date.now() : false,
    self_signed: issuerText === JSON.stringify(cert.subject ?? {}),
    mismatched:
      !net.isIP(host) &&
      !names.some(
        (n) =>
          n === host.toLowerCase() ||
          (n.startsWith('*.') &&
            host.toLowerCase().endsWith(n.slice(1)) &&
            host.split('.').length === n.split('.').length),
      ),
  };
}
