// Settings read once from the environment (and overridden by CLI flags in src/cli).
import path from 'node:path';

export interface PlatformConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  ownerEmail: string;
  bootstrapApiKey?: string;
  maxScanTargets: number;
  templatesDir?: string;
  /** Public base URL used in download links (exports); defaults to http://host:port. */
  publicUrl?: string;
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
    templatesDir: env.VIGIL_TEMPLATES_DIR || undefined,
    publicUrl: env.VIGIL_PUBLIC_URL || undefined,
  };
}
