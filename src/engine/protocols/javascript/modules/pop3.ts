// nuclei/pop3 (pkg/js/libs/pop3, fingerprintx's pop3 probe): IsPOP3(host, port) -> { IsPOP3, Banner }:
// a POP3 server greets with "+OK" and answers a line that is not a command with "-ERR"; Banner is the
// greeting after "+OK " as received (its line end kept). Anything else is { IsPOP3: false }, not an
// error; a connection that fails, or a server that stays silent, is an error.
import { bounded, connectTcp, HostEnv, portOf, text, type HostOp } from '../host.ts';
import { firstAnswer } from './probe.ts';

async function isPop3(env: HostEnv, host: unknown, port: unknown) {
  const s = await connectTcp(env, text(host), portOf(port));
  try {
    const greeting = await bounded(firstAnswer(s), env, 'pop3 greeting');
    const no = { IsPOP3: false, Banner: '' };
    if (greeting.length === 0) return no;
    const answer = await bounded(firstAnswer(s, Buffer.from('Not a command \r\n')), env, 'pop3');
    const g = greeting.toString('latin1');
    if (!g.startsWith('+OK') || !answer.toString('latin1').startsWith('-ERR')) return no;
    return { IsPOP3: true, Banner: greeting.subarray(4).toString('utf8') };
  } finally {
    s.destroy();
  }
}

export const pop3Ops: Record<string, HostOp> = {
  'pop3.IsPOP3': (env, [h, p]) => isPop3(env, h, p),
};
