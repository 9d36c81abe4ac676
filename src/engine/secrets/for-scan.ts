// Secret files for a scan: loaded and validated, then their dynamic logins run (each at most once) before
// the scan starts. `vigil scan --secret-file` and a worker process's local secrets (`vigil worker
// --secret-file`) load them the same way.
import { loadSecretFiles } from './load.ts';
import { runnerLogin } from './runner-login.ts';
import type { SecretStore } from './store.ts';

export interface ScanSecretOptions {
  /** Login request timeout in seconds. */
  timeout?: number;
  retries?: number;
  socks5Proxy?: string;
  /** Where relative login template paths are looked up, in order; default: the working directory. */
  templatesDirs?: string[];
}

/**
 * Loads the secret files and runs their dynamic logins; undefined without files. A number is the login
 * timeout (older callers). Throws SecretFileError / SecretLoginError naming the problem.
 */
export async function loadScanSecrets(
  files: string[],
  options: number | ScanSecretOptions = {},
): Promise<SecretStore | undefined> {
  if (files.length === 0) return undefined;
  const opts = typeof options === 'number' ? { timeout: options } : options;
  const store = await loadSecretFiles(files, { templatesDir: opts.templatesDirs });
  await store.prepare({
    login: runnerLogin({ timeout: opts.timeout ?? 10, retries: opts.retries, socks5Proxy: opts.socks5Proxy }),
  });
  return store;
}
