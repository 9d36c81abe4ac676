// Debian-packaged servers a test starts on a free high port of 127.0.0.1 (redis-server, sshd ...),
// stopped by the test. `which` answers whether the binary is installed, so a test can skip with a message.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/**
 * Seconds a test gives one connection to a Debian daemon that forks a process per connection (smbd,
 * dovecot, xrdp): 3 s left no margin on a loaded CI machine, where one smbd answer was once lost.
 */
export const FORKING_DAEMON_TIMEOUT_S = 10;

export function installed(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary} || test -x ${binary}`], { stdio: 'ignore' }).status === 0;
}

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Resolves once 127.0.0.1:port accepts a connection (the server is up), or rejects after `ms`. */
export async function waitForPort(port: number, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Service {
  port: number;
  proc: ChildProcess;
  stop(): void;
}

/** Starts `command args` (with `{port}` replaced by a free port) and waits until it listens. */
export async function startService(command: string, args: string[]): Promise<Service> {
  const port = await freePort();
  const proc = spawn(
    command,
    args.map((a) => a.replaceAll('{port}', String(port))),
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  try {
    await waitForPort(port);
  } catch (e) {
    proc.kill();
    throw new Error(`${command} did not start: ${(e as Error).message} ${err.slice(0, 500)}`);
  }
  return { port, proc, stop: () => proc.kill() };
}
