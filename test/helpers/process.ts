// Real `vigil` processes for end-to-end tests: spawn the CLI, wait for lines of its output, signal it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface VigilProcess {
  proc: ChildProcess;
  /** Everything written so far to stdout / stderr. */
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the first match of re in stdout+stderr (waiting for more output), rejects on exit or timeout. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (signal name when killed). */
  exited: Promise<number | string>;
  /** The base URL once the server logged "vigil listening on ..." */
  listening(timeoutMs?: number): Promise<string>;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

/**
 * Runs `node bin/vigil.mjs ...args` with env added to a clean copy of this process's environment; `wrap`
 * runs it under another command (e.g. `ip netns exec NS`, for an agent inside a test's network namespace).
 */
export function spawnVigil(
  args: string[],
  env: Record<string, string | undefined> = {},
  wrap: string[] = [],
): VigilProcess {
  const base = { ...process.env };
  for (const k of ['DATABASE_URL', 'VIGIL_DB_SCHEMA', 'VIGIL_BOOTSTRAP_API_KEY', 'PORT', 'VIGIL_DATA_DIR'])
    delete base[k];
  const cmd = [...wrap, process.execPath, path.join(repoRoot, 'bin/vigil.mjs'), ...args];
  const proc = spawn(cmd[0]!, cmd.slice(1), {
    cwd: repoRoot,
    env: { ...base, VIGIL_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  proc.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    listeners.forEach((l) => l());
  });
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    listeners.forEach((l) => l());
  });
  const exited = new Promise<number | string>((resolve) =>
    proc.on('exit', (code, signal) => {
      resolve(code ?? signal ?? -1);
      listeners.forEach((l) => l());
    }),
  );
  let exitCode: number | string | undefined;
  void exited.then((c) => (exitCode = c));

  const waitFor = (re: RegExp, timeoutMs = 90_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = (out + err).match(re);
        if (m) return done(() => resolve(m));
        if (exitCode !== undefined || proc.exitCode !== null) {
          done(() =>
            reject(new Error(`vigil exited (${proc.exitCode ?? exitCode}) before printing ${re}:\n${out}\n${err}`)),
          );
        }
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`timeout waiting for ${re}:\n${out}\n${err}`))),
        timeoutMs,
      );
      const done = (fn: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        fn();
      };
      listeners.add(check);
      check();
    });

  return {
    proc,
    get stdout() {
      return out;
    },
    get stderr() {
      return err;
    },
    waitFor,
    exited,
    async listening(timeoutMs) {
      return (await waitFor(/vigil listening on (https?:\/\/[^"\s]+)/, timeoutMs))[1]!;
    },
    async kill(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** Runs a short vigil command to its end. */
export async function runVigil(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const p = spawnVigil(args, env);
  const code = await p.exited;
  return { code, stdout: p.stdout, stderr: p.stderr };
}
