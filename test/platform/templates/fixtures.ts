// A small template catalogue written to a temporary folder, shaped like a nuclei-templates checkout.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TplSpec {
  id: string;
  name?: string;
  severity?: string;
  tags?: string[];
  author?: string;
  protocol?: 'http' | 'dns' | 'tcp' | 'ssl' | 'file' | 'javascript' | 'workflow';
  description?: string;
  vendor?: string;
  product?: string;
  cve?: string;
}

/** Template text for a spec: a minimal valid template of the given protocol. */
export function templateText(s: TplSpec): string {
  const lines = [
    `id: ${s.id}`,
    '',
    'info:',
    `  name: ${s.name ?? `Template ${s.id}`}`,
    `  author: ${s.author ?? 'alice'}`,
  ];
  if (s.severity) lines.push(`  severity: ${s.severity}`);
  if (s.description) lines.push(`  description: ${s.description}`);
  if (s.cve) lines.push('  classification:', `    cve-id: ${s.cve}`, '    cwe-id: CWE-79');
  if (s.vendor || s.product) {
    lines.push('  metadata:');
    if (s.vendor) lines.push(`    vendor: ${s.vendor}`);
    if (s.product) lines.push(`    product: ${s.product}`);
  }
  if (s.tags?.length) lines.push(`  tags: ${s.tags.join(',')}`);
  lines.push('');
  switch (s.protocol ?? 'http') {
    case 'http':
      lines.push(
        'http:',
        '  - method: GET',
        '    path:',
        '      - "{{BaseURL}}/"',
        '    matchers:',
        '      - type: word',
        '        words:',
        `          - "${s.id}"`,
      );
      break;
    case 'dns':
      lines.push(
        'dns:',
        '  - name: "{{FQDN}}"',
        '    type: A',
        '    matchers:',
        '      - type: word',
        '        words:',
        '          - "IN\\tA"',
      );
      break;
    case 'tcp':
      lines.push(
        'tcp:',
        '  - host:',
        '      - "{{Hostname}}"',
        '    inputs:',
        '      - data: "PING\\r\\n"',
        '    matchers:',
        '      - type: word',
        '        words:',
        '          - "PONG"',
      );
      break;
    case 'ssl':
      lines.push(
        'ssl:',
        '  - address: "{{Host}}:{{Port}}"',
        '    matchers:',
        '      - type: dsl',
        '        dsl:',
        '          - "true"',
      );
      break;
    case 'file':
      lines.push(
        'file:',
        '  - extensions:',
        '      - all',
        '    matchers:',
        '      - type: word',
        '        words:',
        '          - "secret"',
      );
      break;
    case 'javascript':
      lines.push(
        'javascript:',
        '  - code: |',
        '      1',
        '    args:',
        '      Host: "{{Host}}"',
        '    matchers:',
        '      - type: dsl',
        '        dsl:',
        '          - "success == true"',
      );
      break;
    case 'workflow':
      lines.push('workflows:', '  - template: http/a.yaml');
      break;
  }
  return lines.join('\n') + '\n';
}

export interface Catalogue {
  dir: string;
  write(rel: string, spec: TplSpec | string): void;
  remove(rel: string): void;
  cleanup(): void;
}

export function makeCatalogue(files: Record<string, TplSpec | string>): Catalogue {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-catalogue-'));
  const cat: Catalogue = {
    dir,
    write(rel, spec) {
      const file = path.join(dir, rel);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, typeof spec === 'string' ? spec : templateText(spec));
    },
    remove(rel) {
      rmSync(path.join(dir, rel));
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  for (const [rel, spec] of Object.entries(files)) cat.write(rel, spec);
  return cat;
}

/** The small catalogue most tests use: 10 templates over several folders, protocols and severities. */
export const SMALL: Record<string, TplSpec> = {
  'http/cves/2021/CVE-2021-44228.yaml': {
    id: 'CVE-2021-44228',
    name: 'Apache Log4j2 Remote Code Injection',
    severity: 'critical',
    tags: ['cve', 'cve2021', 'rce', 'log4j', 'oast'],
    author: 'bob,alice',
    description: 'Apache Log4j2 JNDI features do not protect against attacker controlled LDAP endpoints.',
    vendor: 'apache',
    product: 'log4j',
    cve: 'CVE-2021-44228',
  },
  'http/cves/2022/CVE-2022-1388.yaml': {
    id: 'CVE-2022-1388',
    name: 'F5 BIG-IP iControl REST Auth Bypass',
    severity: 'critical',
    tags: ['cve', 'cve2022', 'f5', 'bigip', 'rce'],
    author: 'carol',
    description: 'Undisclosed requests may bypass iControl REST authentication.',
    vendor: 'f5',
    product: 'big-ip',
    cve: 'CVE-2022-1388',
  },
  'http/vulnerabilities/wordpress/wp-xss.yaml': {
    id: 'wordpress-plugin-xss',
    name: 'WordPress Plugin Reflected XSS',
    severity: 'medium',
    tags: ['wordpress', 'xss', 'wp-plugin'],
    author: 'alice',
    description: 'A WordPress plugin reflects the search parameter.',
    vendor: 'wordpress',
    product: 'wordpress',
  },
  'http/technologies/wordpress-detect.yaml': {
    id: 'wordpress-detect',
    name: 'WordPress Detection',
    severity: 'info',
    tags: ['tech', 'wordpress'],
    author: 'dave',
  },
  'http/misc/dos-check.yaml': {
    id: 'slowloris-dos',
    name: 'Slow request denial',
    severity: 'high',
    tags: ['dos'],
    author: 'erin',
  },
  'http/exposures/backup-files.yaml': {
    id: 'backup-files',
    name: 'Backup Files Exposure',
    severity: 'low',
    tags: ['exposure', 'backup'],
    author: 'alice',
  },
  'dns/caa-fingerprint.yaml': {
    id: 'caa-fingerprint',
    name: 'CAA Fingerprint',
    severity: 'info',
    tags: ['dns', 'caa'],
    author: 'bob',
    protocol: 'dns',
  },
  'network/redis-unauth.yaml': {
    id: 'redis-unauth',
    name: 'Redis Unauthenticated Access',
    severity: 'high',
    tags: ['network', 'redis'],
    author: 'frank',
    protocol: 'tcp',
  },
  'ssl/weak-cipher.yaml': {
    id: 'weak-cipher-suites',
    name: 'Weak Cipher Suites',
    severity: 'low',
    tags: ['ssl', 'tls'],
    author: 'bob',
    protocol: 'ssl',
  },
  'workflows/wordpress-workflow.yaml': {
    id: 'wordpress-workflow',
    name: 'WordPress Workflow',
    tags: ['workflow', 'wordpress'],
    author: 'alice',
    protocol: 'workflow',
  },
};
