// nuclei/oracle (pkg/js/libs/oracle, probe from fingerprintx's oracledb plugin): IsOracle(host, port) ->
// { IsOracle, Banner }, both as a module function (the corpus's templates call it so, as older nuclei
// had it) and as OracleClient().IsOracle. The probe sends a TNS CONNECT for a service that does not
// exist; a TNS listener refuses it (or asks for a resend) with a (DESCRIPTION=(TMP=)(VSNNUM=...)
// answer, and the banner is fingerprintx's text of it: map[ERROR_CODE:.. Oracle TNS Listener
// Version:.. VSNNUM:..]. Anything else is { IsOracle: false } (not an error).
// OracleClient's Connect, ConnectWithDSN, ExecuteQuery and ExecuteQueryWithDSN need an Oracle client
// that can be handed the engine's guarded socket; there is none, so they answer an error saying so.
// Not tested against a real Oracle listener: Debian packages none (docs/protocols.md).
import type { HostEnv, HostOp } from '../host.ts';
import { connectTcp, bounded, portOf, text } from '../host.ts';
import { firstAnswer } from './probe.ts';

/** A TNS CONNECT packet (version 316, compatible 300) carrying `data`. */
export function tnsConnect(data: string): Buffer {
  const body = Buffer.from(data, 'latin1');
  const h = Buffer.alloc(58);
  h.writeUInt16BE(body.length + 58, 0); // packet length; checksum 0
  h[4] = 0x01; // CONNECT
  h.writeUInt16BE(0x013c, 8); // version
  h.writeUInt16BE(0x012c, 10); // lowest version compatible
  h.writeUInt16BE(0x8000, 14); // session data unit
  h.writeUInt16BE(0x7fff, 16); // maximum transmission data unit
  h.writeUInt16BE(0x7f08, 18); // protocol characteristics
  h.writeUInt16BE(0x0001, 22); // 1 in hardware byte order
  h.writeUInt16BE(body.length, 24); // connect data length
  h.writeUInt16BE(58, 26); // connect data offset
  h.writeUInt32BE(0x400, 28); // maximum receivable connect data
  return Buffer.concat([h, body]);
}

/** fingerprintx's test: a REFUSE (4), ACCEPT (2) or RESEND (11) answer holding the listener's description. */
export function tnsBanner(r: Buffer): string | undefined {
  if (r.length < 27 || ![2, 4, 11].includes(r[4]!)) return undefined;
  if (r.indexOf('(DESCRIPTION=(TMP=)(VSNNUM=', 0, 'latin1') <= 0) return undefined;
  const numbers = /[0-9]+/g;
  const refuse = r.subarray(12).toString('latin1');
  const vsn = numbers.exec(refuse)?.[0];
  const err = numbers.exec(refuse)?.[0];
  if (vsn === undefined || err === undefined) return undefined;
  // VSNNUM is the version's nibbles: 0x0A200100 is 10.2.0.1.0.
  const v = Number(vsn);
  const b = [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
  const second = b[1]!.toString(16).padStart(2, '0');
  const version = `${b[0]}.${second[0]}.${second[1]}.${b[2]}.${b[3]}`;
  return `map[ERROR_CODE:${err} Oracle TNS Listener Version:${version} VSNNUM:${vsn}]`;
}

async function isOracle(env: HostEnv, host: unknown, port: unknown) {
  const s = await connectTcp(env, text(host), portOf(port));
  try {
    const data =
      '(DESCRIPTION=(CONNECT_DATA=(SERVICE_NAME=vigil-probe-no-such-service)(CID=(PROGRAM=sqlplus)' +
      `(HOST=__jdbc__)(USER=)))(ADDRESS=(PROTOCOL=tcp)(HOST=${s.remoteAddress ?? ''})(PORT=${s.remotePort ?? ''})))`;
    const banner = tnsBanner(await bounded(firstAnswer(s, tnsConnect(data)), env, 'oracle'));
    return banner === undefined ? { IsOracle: false, Banner: '' } : { IsOracle: true, Banner: banner };
  } finally {
    s.destroy();
  }
}

const noClient = () => {
  throw new Error('oracle: logging in and queries are not supported on this platform (IsOracle is)');
};

export const oracleOps: Record<string, HostOp> = {
  'oracle.IsOracle': (env, [h, p]) => isOracle(env, h, p),
  'oracle.client.IsOracle': (env, [, h, p]) => isOracle(env, h, p),
  'oracle.client.Connect': noClient,
  'oracle.client.ConnectWithDSN': noClient,
  'oracle.client.ExecuteQuery': noClient,
  'oracle.client.ExecuteQueryWithDSN': noClient,
};
