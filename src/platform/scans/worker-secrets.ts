// Local secrets of a worker process (`vigil worker --secret-file`): loaded once in that process (dynamic
// logins run once, as in `vigil scan`) and applied to the scan chunks it runs. They never reach the
// database, the server or any export.
import type { SecretApplier } from '../../engine/secrets/index.ts';
import { loadScanSecrets } from '../../cli/scan.ts';

let current: SecretApplier | undefined;

/** Loads secret files for this process's scan chunks; throws on a broken file so the worker does not start. */
export async function useSecretFiles(paths: string[], timeoutSeconds = 10): Promise<void> {
  current = await loadScanSecrets(paths, timeoutSeconds);
}

export function setWorkerSecrets(secrets: SecretApplier | undefined): void {
  current = secrets;
}

export function workerSecrets(): SecretApplier | undefined {
  return current;
}
