// Targets a scan may not name unless the operator allows it: cloud metadata services (a scan of them
// hands the host's cloud credentials to whoever reads the findings) and the platform's own listening
// port (a scan of the API itself). Extra patterns come from VIGIL_DENY_TARGETS.
import net from 'node:net';
import type { PlatformConfig } from '../config.ts';
import { badRequest } from '../errors.ts';
import { hostOf, parsePattern, type ScopePattern } from './targets.ts';

/** Cloud metadata endpoints (AWS, ECS, GCP, Azure, Alibaba, OpenStack, Oracle...). */
export const METADATA_TARGETS = [
  '169.254.169.254', '169.254.170.2', '169.254.169.253', 'fd00:ec2::254', '100.100.100.200',
  'metadata.google.internal', 'metadata.goog', 'metadata.azure.internal', 'instance-data', 'instance-data.ec2.internal',
];

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', '0.0.0.0', '::', '0']);

function isLoopback(host: string): boolean {
  if (LOOPBACK_NAMES.has(host) || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  if (net.isIPv6(host)) return host === '::1' || /^::ffff:127\./i.test(host);
  return false;
}

/** The port a target names: explicit, or the scheme's default; undefined for a bare host. */
function portOf(target: string): number | undefined {
  const t = target.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) {
    try {
      const u = new URL(t);
      if (u.port) return Number(u.port);
      return u.protocol === 'https:' ? 443 : u.protocol === 'http:' ? 80 : undefined;
    } catch {
      return undefined;
    }
  }
  const m = /:(\d{1,5})$/.exec(t);
  return m && !net.isIPv6(t) ? Number(m[1]) : undefined;
}

export interface DenyList {
  /** Why a target is denied, or undefined. */
  reason(target: string): string | undefined;
  /** IP / CIDR patterns, subtracted from ranges before they are expanded. */
  patterns: ScopePattern[];
}

export function denyList(config: Pick<PlatformConfig, 'port' | 'host' | 'denyTargets' | 'allowDeniedTargets'>): DenyList {
  const builtin = config.allowDeniedTargets ? [] : METADATA_TARGETS.map((m) => parsePattern(m, 'VIGIL_DENY_TARGETS'));
  const extra = (config.denyTargets ?? []).map((m) => parsePattern(m, 'VIGIL_DENY_TARGETS'));
  const patterns = [...builtin, ...extra];
  const ownHost = hostOf(config.host);
  return {
    patterns,
    reason(target) {
      if (builtin.some((p) => p.test(target))) return 'is a cloud metadata address';
      if (extra.some((p) => p.test(target))) return 'is on the deny list (VIGIL_DENY_TARGETS)';
      if (!config.allowDeniedTargets) {
        const host = hostOf(target);
        const port = portOf(target);
        if (port === config.port && (isLoopback(host) || host === ownHost)) return "is this platform's own API port";
      }
      return undefined;
    },
  };
}

/** Throws a 400 naming the first denied target of a request. */
export function checkDenied(deny: DenyList, targets: string[], param: string): void {
  targets.forEach((t, i) => {
    const why = deny.reason(t);
    if (why) {
      throw badRequest(`target "${t}" ${why}; scans of it are denied (an operator can allow it with VIGIL_ALLOW_DENIED_TARGETS=1)`, `${param}[${i}]`);
    }
  });
}
