// The certificates of the tests, made at test time with the openssl CLI: a CA, leaves it signs (names,
// validity), and self-signed ones; each returned as PEM key + certificate. localhostCert() is the one
// self-signed localhost certificate test servers use when the test does not care which.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Pem {
  key: string;
  cert: string;
}

export interface CertOptions {
  /** Subject, e.g. `/CN=www.vigil.test/O=Vigil Test`. */
  subject: string;
  /** DNS names for subjectAltName. */
  dns?: string[];
  /** Validity in days; -1 makes a certificate that expired yesterday. */
  days?: number;
  /** Signed by this CA; self-signed when absent. */
  ca?: Pem;
  /** A CA certificate (basicConstraints CA:TRUE). */
  isCa?: boolean;
}

export function makeCert(o: CertOptions): Pem {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-certs-'));
  const f = (n: string) => path.join(dir, n);
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    run([
      'req',
      '-new',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      o.subject,
      '-keyout',
      f('key.pem'),
      '-out',
      f('req.csr'),
    ]);
    const ext: string[] = [];
    if (o.dns?.length) ext.push(`subjectAltName=${o.dns.map((d) => `DNS:${d}`).join(',')}`);
    ext.push('subjectKeyIdentifier=hash');
    if (o.ca) ext.push('authorityKeyIdentifier=keyid');
    if (o.isCa) ext.push('basicConstraints=critical,CA:TRUE');
    writeFileSync(f('ext.cnf'), `${ext.join('\n')}\n`);
    const days = String(o.days ?? 30);
    if (o.ca) {
      writeFileSync(f('ca.pem'), o.ca.cert);
      writeFileSync(f('ca.key'), o.ca.key);
      run([
        'x509',
        '-req',
        '-in',
        f('req.csr'),
        '-CA',
        f('ca.pem'),
        '-CAkey',
        f('ca.key'),
        '-set_serial',
        '0x08BB00EE1234',
        '-days',
        days,
        '-extfile',
        f('ext.cnf'),
        '-out',
        f('cert.pem'),
      ]);
    } else {
      run([
        'x509',
        '-req',
        '-in',
        f('req.csr'),
        '-signkey',
        f('key.pem'),
        '-days',
        days,
        '-extfile',
        f('ext.cnf'),
        '-out',
        f('cert.pem'),
      ]);
    }
    return { key: readFileSync(f('key.pem'), 'utf8'), cert: readFileSync(f('cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let localhost: Pem | undefined;

/** A self-signed certificate for CN=localhost, made on first use and kept for the process. */
export function localhostCert(): Pem {
  localhost ??= makeCert({ subject: '/CN=localhost' });
  return localhost;
}
