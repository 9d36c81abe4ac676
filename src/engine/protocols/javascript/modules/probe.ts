// One request and the first answer to it, as fingerprintx's SendRecv (the probes nuclei's rdp, mssql,
// oracle and pop3 modules run): connect to the target through the guard, send, and read what arrives
// first. A server that closes without a word answers an empty buffer; one that stays silent times out.
import { bounded, connectTcp, HostEnv, portOf, text } from '../host.ts';

/** Largest first answer kept (the probes read one packet). */
const MAX_ANSWER = 64 * 1024;

export async function sendRecv(env: HostEnv, host: unknown, port: unknown, request?: Buffer): Promise<Buffer> {
  const s = await connectTcp(env, text(host), portOf(port));
  try {
    return await bounded(firstAnswer(s, request), env, 'probe');
  } finally {
    s.destroy();
  }
}

/** Sends `request` (when given) on an open socket and resolves with the first chunk it answers. */
export function firstAnswer(s: import('node:net').Socket, request?: Buffer): Promise<Buffer> {
  return new Promise<Buffer>((resolve) => {
    s.once('data', (d: Buffer) => resolve(d.subarray(0, MAX_ANSWER)));
    s.once('close', () => resolve(Buffer.alloc(0)));
    if (request) s.write(request);
  });
}
