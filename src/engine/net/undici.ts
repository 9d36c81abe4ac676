// undici under a connect guard: a connector that resolves and checks every connection's host before
// undici's own connector dials the checked address (the TLS server name stays the URL's host). Every
// dispatcher the engine (and the platform, through the engine's index) builds for a guarded use takes it,
// so redirects followed by fetch are checked hop by hop.
import type { Agent, buildConnector } from 'undici';
import { lazy } from '../lazy.ts';
import type { ConnectGuard } from './guard.ts';

const undici = lazy<typeof import('undici')>('undici');

/** A connector for undici's `connect` option: the host checked by `guard`, then dialled by address. */
export function guardedConnector(
  guard: ConnectGuard,
  options: buildConnector.BuildOptions = {},
): buildConnector.connector {
  const base = undici().buildConnector(options);
  return (opts, callback) => {
    const port = Number(opts.port || (opts.protocol === 'https:' ? 443 : 80));
    guard.address(opts.hostname, port).then(
      (address) => base({ ...opts, hostname: address }, callback),
      (err: Error) => callback(err, null),
    );
  };
}

/** An undici Agent whose connections go through `guard` (none: an ordinary Agent with these options). */
export function guardedAgent(
  guard: ConnectGuard | undefined,
  options: Agent.Options & { connect?: buildConnector.BuildOptions } = {},
): Agent {
  const { connect, ...rest } = options;
  const Agent = undici().Agent;
  if (!guard) return new Agent({ ...rest, connect });
  return new Agent({ ...rest, connect: guardedConnector(guard, connect) });
}
