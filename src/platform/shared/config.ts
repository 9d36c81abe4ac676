// Settings read once from the environment (and overridden by CLI flags in src/cli).
import path from 'node:path';
import { oastConfigFromEnv, type OastConfig } from '../../oast/index.ts';
import type { InteractshOptions } from '../../engine/index.ts';

export interface PlatformConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  ownerEmail: string;
  bootstrapApiKey?: string;
  maxScanTargets: number;
  /** API requests one key (or, without a key, one address) may make per minute; 0 turns the limit off (VIGIL_RATE_LIMIT). */
  rateLimitPerMinute: number;
  /** Range addresses one scan may name in all, after exclusions (VIGIL_MAX_RANGE_ADDRESSES). */
  maxRangeAddresses: number;
  /** Address-port pairs one enumeration run may probe, counted at create (VIGIL_MAX_ENUMERATION_PROBES). */
  maxEnumerationProbes: number;
  /** Names one enumeration run may brute-force: root domains x words (VIGIL_MAX_ENUMERATION_NAMES). */
  maxEnumerationNames: number;
  /** Extra targets scans may not name (VIGIL_DENY_TARGETS, comma separated patterns). */
  denyTargets: string[];
  /** Lifts the built-in denials: cloud metadata addresses and the platform's own port (VIGIL_ALLOW_DENIED_TARGETS=1). */
  allowDeniedTargets: boolean;
  /**
   * Addresses and CIDR ranges integrations (webhooks, chat, trackers, SMTP) may reach besides public
   * addresses (VIGIL_EGRESS_ALLOW, comma separated).
   */
  egressAllow: string[];
  templatesDir?: string;
  /** Public base URL used in download links (exports); defaults to http(s)://host:port. */
  publicUrl?: string;
  /** PEM certificate and key files: serve HTTPS (VIGIL_TLS_CERT, VIGIL_TLS_KEY; --tls-cert, --tls-key). */
  tlsCert?: string;
  tlsKey?: string;
  /** Who may create teams: owner, allowed (default) or everyone (VIGIL_TEAM_CREATION; checked at start, team/team-creation.ts). */
  teamCreation?: string;
  /** Strict-Transport-Security max-age in seconds sent over HTTPS; 0 leaves the header out (VIGIL_HSTS_MAX_AGE). */
  hstsMaxAge: number;
  /** The OAST server `vigil serve` runs, when VIGIL_OAST_HTTP (with _DOMAIN and _IP) says where (docs/oast.md). */
  oast?: OastConfig;
  /**
   * Where the platform's scans register for out-of-band checks: VIGIL_OAST_URL (a worker on another
   * machine), else the OAST server above (its HTTP listener on this machine).
   */
  interactsh?: InteractshOptions;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  return {
    host: env.VIGIL_HOST ?? '127.0.0.1',
    port: Number(env.PORT ?? 8085),
    dataDir: path.resolve(env.VIGIL_DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    ownerEmail: env.VIGIL_OWNER_EMAIL ?? 'owner@localhost',
    bootstrapApiKey: env.VIGIL_BOOTSTRAP_API_KEY || undefined,
    maxScanTargets: Number(env.VIGIL_MAX_SCAN_TARGETS ?? 10_000),
    // Only an explicit 0 turns the limit off: an empty or mistyped value keeps the default, never fails open.
    rateLimitPerMinute: wholeNumber(env.VIGIL_RATE_LIMIT, 1200),
    maxRangeAddresses: Number(env.VIGIL_MAX_RANGE_ADDRESSES ?? 1 << 20),
    maxEnumerationProbes: Number(env.VIGIL_MAX_ENUMERATION_PROBES ?? 2 ** 24),
    maxEnumerationNames: Number(env.VIGIL_MAX_ENUMERATION_NAMES ?? 1_000_000),
    denyTargets: (env.VIGIL_DENY_TARGETS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    allowDeniedTargets: /^(1|true|yes)$/i.test(env.VIGIL_ALLOW_DENIED_TARGETS ?? ''),
    egressAllow: (env.VIGIL_EGRESS_ALLOW ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    templatesDir: env.VIGIL_TEMPLATES_DIR || undefined,
    publicUrl: env.VIGIL_PUBLIC_URL || undefined,
    tlsCert: env.VIGIL_TLS_CERT || undefined,
    tlsKey: env.VIGIL_TLS_KEY || undefined,
    teamCreation: env.VIGIL_TEAM_CREATION || undefined,
    hstsMaxAge: wholeNumber(env.VIGIL_HSTS_MAX_AGE, 31_536_000),
    ...oastFromEnv(env),
  };
}

/** The OAST server's settings and the scans' way to it (none when VIGIL_OAST_DOMAIN is unset). */
function oastFromEnv(env: NodeJS.ProcessEnv): Pick<PlatformConfig, 'oast' | 'interactsh'> {
  const domain = env.VIGIL_OAST_DOMAIN?.trim().toLowerCase().replace(/\.$/, '');
  if (!domain) return {};
  const oast = env.VIGIL_OAST_HTTP ? oastConfigFromEnv(env) : undefined;
  const token = env.VIGIL_OAST_TOKEN || undefined;
  if (env.VIGIL_OAST_URL) return { oast, interactsh: { server: env.VIGIL_OAST_URL, domain, token } };
  if (!oast) return {};
  const host = ['0.0.0.0', '::'].includes(oast.http.host) ? '127.0.0.1' : oast.http.host;
  const server = `http://${host.includes(':') ? `[${host}]` : host}:${oast.http.port}`;
  return { oast, interactsh: { server, domain, token } };
}

/** A setting that is a whole number of at least 0, or the default when unset or not one. */
function wholeNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isSafeInteger(n) && n >= 0 ? n : fallback;
}
