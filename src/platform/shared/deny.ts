// Where the platform's traffic may not go unless the operator allows it: cloud metadata services (a scan
// of them hands the host's cloud credentials to whoever reads the findings), the platform's own API port
// on any address of this machine (a scan or webhook of the API itself), and VIGIL_DENY_TARGETS. The rules
// are an engine egress policy: scans, discovery and integrations are decided on the address actually
// connected to; scan creation refuses a target that names a denied address in any spelling.
import os from 'node:os';
import type { PlatformConfig } from './config.ts';
import { badRequest } from './errors.ts';
import { hostOf, parsePattern, type ScopePattern } from './target-patterns.ts';
import {
  compileRule,
  Egress,
  hostsFileAddresses,
  parseHost,
  type EgressPolicy,
  type EgressRule,
} from '../../engine/index.ts';

/** Cloud metadata endpoints (AWS, ECS, GCP, Azure, Alibaba, OpenStack, Oracle...). */
export const METADATA_TARGETS = [
  '169.254.169.254',
  '169.254.170.2',
  '169.254.169.253',
  'fd00:ec2::254',
  '100.100.100.200',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
];

const METADATA = 'cloud metadata address';
const OWN_PORT = "this platform's own API port";
const LISTED = 'on the deny list (VIGIL_DENY_TARGETS)';
/** How scan creation says each reason of a named target. */
const SAID: Record<string, string> = {
  [METADATA]: `is a ${METADATA}`,
  [OWN_PORT]: `is ${OWN_PORT}`,
  [LISTED]: `is ${LISTED}`,
};

/** Addresses that reach this machine: loopback, "this host" (0.0.0.0 connects locally), every interface's address. */
function localAddresses(host: string): string[] {
  const out = ['127.0.0.0/8', '0.0.0.0/8', '::1', '::'];
  for (const list of Object.values(os.networkInterfaces())) for (const i of list ?? []) out.push(i.address);
  if (parseHost(host).kind === 'address') out.push(host);
  return out;
}

/** Names that always mean this machine, whatever a resolver says. */
const LOCAL_NAMES = ['localhost', '*.localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback'];

type DenyConfig = Pick<PlatformConfig, 'port' | 'host' | 'denyTargets' | 'allowDeniedTargets'>;

/** One VIGIL_DENY_TARGETS pattern as rules: an address, range or name on every port; a URL or host:port on its port. */
function listedRules(pattern: string): EgressRule[] {
  const p = pattern.trim();
  let host = p;
  let port: number | undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p)) {
    try {
      const u = new URL(p);
      host = u.hostname;
      port = Number(u.port || (u.protocol === 'https:' ? 443 : u.protocol === 'http:' ? 80 : NaN)) || undefined;
    } catch {
      // checked below
    }
  } else {
    const hp = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(p);
    if (hp) {
      host = hp[1]!;
      port = Number(hp[2]);
    }
  }
  return [{ target: host, port, reason: LISTED }];
}

/** The rules every connection of the platform's scans and discovery obeys (and integrations, with more). */
export function scanEgress(config: DenyConfig): EgressPolicy {
  const deny: EgressRule[] = [];
  if (!config.allowDeniedTargets) {
    for (const t of METADATA_TARGETS) deny.push({ target: t, reason: METADATA });
    for (const t of [...localAddresses(config.host), ...LOCAL_NAMES])
      deny.push({ target: t, port: config.port, reason: OWN_PORT });
    if (parseHost(config.host).kind === 'name') deny.push({ target: config.host, port: config.port, reason: OWN_PORT });
  }
  for (const p of config.denyTargets ?? []) deny.push(...listedRules(p));
  for (const r of deny) {
    try {
      compileRule(r.target);
    } catch (err) {
      throw badRequest(`VIGIL_DENY_TARGETS: ${(err as Error).message}`, 'VIGIL_DENY_TARGETS');
    }
  }
  return { deny };
}

/**
 * Integrations (webhooks, chat, trackers, mail) reach public addresses only, plus the ranges the operator
 * lists in VIGIL_EGRESS_ALLOW; the scans' deny rules hold for them too.
 */
export function integrationEgress(config: DenyConfig & Pick<PlatformConfig, 'egressAllow'>): EgressPolicy {
  return { ...scanEgress(config), publicOnly: true, allow: config.egressAllow ?? [] };
}

/**
 * Throws an Error naming the setting when VIGIL_DENY_TARGETS or VIGIL_EGRESS_ALLOW holds something that is
 * no address, range or name: a process must not start with a list it would silently not apply.
 */
export function checkEgressSettings(config: DenyConfig & Pick<PlatformConfig, 'egressAllow'>): void {
  const policy = integrationEgress(config); // throws for VIGIL_DENY_TARGETS
  try {
    new Egress(policy);
  } catch (err) {
    throw new Error(`VIGIL_EGRESS_ALLOW: ${(err as Error).message}`);
  }
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
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(t);
  return m ? Number(m[2]) : undefined;
}

export interface DenyList {
  /** Why a target is denied, or undefined. */
  reason(target: string): string | undefined;
  /** IP / CIDR patterns, subtracted from ranges before they are expanded. */
  patterns: ScopePattern[];
  /** The rules as an engine policy, for connections. */
  policy: EgressPolicy;
}

/** No rule has port 0: a target without a port meets only the rules of every port. */
const NO_PORT = 0;

export function denyList(config: DenyConfig): DenyList {
  const policy = scanEgress(config);
  const egress = new Egress(policy);
  const patterns = (policy.deny ?? [])
    .filter((r) => r.port === undefined && 'cidr' in compileRule(r.target))
    .map((r) => parsePattern(r.target, 'VIGIL_DENY_TARGETS'));
  return {
    policy,
    patterns,
    reason(target) {
      const port = portOf(target) ?? NO_PORT;
      const host = parseHost(hostOf(target));
      // A name is decided by its own rules and by the addresses the hosts file gives it (where it leads
      // without any DNS); other names are decided when the engine connects.
      const why =
        host.kind === 'address'
          ? egress.addressDenied(host.address, port)
          : (egress.nameDenied(host.name, port) ??
            hostsFileAddresses(host.name)
              .map((a) => egress.addressDenied(a, port))
              .find(Boolean));
      return why ? (SAID[why] ?? `is ${why}`) : undefined;
    },
  };
}

/** Throws a 400 naming the first denied target of a request. */
export function checkDenied(deny: DenyList, targets: string[], param: string): void {
  targets.forEach((t, i) => {
    const why = deny.reason(t);
    if (why) {
      throw badRequest(
        `target "${t}" ${why}; scans of it are denied (an operator can allow it with VIGIL_ALLOW_DENIED_TARGETS=1)`,
        `${param}[${i}]`,
      );
    }
  });
}
