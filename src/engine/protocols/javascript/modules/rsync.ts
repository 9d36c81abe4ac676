// nuclei/rsync (pkg/js/libs/rsync): IsRsync(host, port) -> { IsRsync, Banner } from the daemon's greeting
// (`@RSYNCD: 31.0` gives Banner "31.0"; anything else is { IsRsync: false }, not an error, as
// fingerprintx's probe), ListModules(host, port, user, password) -> { Modules, Files, Output } from the
// daemon's module list (anonymous listing; a module's files are not fetched).
import { bounded, connectTcp, HostEnv, portOf, text, type HostOp } from '../host.ts';

async function exchange(
  env: HostEnv,
  host: unknown,
  port: unknown,
  send: string | undefined,
  until: RegExp,
): Promise<string> {
  const s = await connectTcp(env, text(host), portOf(port));
  try {
    let got = '';
    return await bounded(
      new Promise<string>((resolve) => {
        let sent = false;
        s.on('data', (d: Buffer) => {
          got += d.toString('utf8');
          if (send !== undefined && !sent && got.includes('\n')) {
            sent = true;
            s.write(send);
          }
          if (until.test(got) || got.length > 256 * 1024) resolve(got);
        });
        s.once('close', () => resolve(got));
      }),
      env,
      'rsync',
    );
  } finally {
    s.destroy();
  }
}

async function isRsync(env: HostEnv, host: unknown, port: unknown) {
  let greeting = '';
  try {
    greeting = await exchange(env, host, port, undefined, /\n/);
  } catch (err) {
    if ((err as { code?: string }).code === 'EGRESS_DENIED' || /refused:/.test((err as Error).message)) throw err;
    return { IsRsync: false, Banner: '' };
  }
  const m = /^@RSYNCD: *([^\r\n]*)/.exec(greeting);
  return m ? { IsRsync: true, Banner: m[1]!.trim() } : { IsRsync: false, Banner: '' };
}

async function listModules(env: HostEnv, host: unknown, port: unknown) {
  const out = await exchange(env, host, port, '@RSYNCD: 31.0\n\n', /@RSYNCD: EXIT/);
  const modules = out
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l && !l.startsWith('@RSYNCD:'))
    .map((l) => l.split(/\s+/)[0]!)
    .filter(Boolean);
  return { Modules: modules, Files: [], Output: out };
}

export const rsyncOps: Record<string, HostOp> = {
  'rsync.IsRsync': (env, [h, p]) => isRsync(env, h, p),
  'rsync.ListModules': (env, [, h, p]) => listModules(env, h, p),
};
