// nuclei/rdp (pkg/js/libs/rdp, probes from fingerprintx's rdp plugin): IsRDP(host, port) -> { IsRDP, OS }
// from the X.224 connection confirm (OS guessed from Windows' known answers, "" otherwise; an answer
// that is not RDP is an error, as nuclei's), CheckRDPAuth(host, port) -> { PluginInfo, Auth } from the
// NTLM challenge a server with network level authentication sends (its OS version and names), and
// CheckRDPEncryption(host, port) -> which security layers the server's negotiation selects when each is
// asked for alone. Written here: no npm package speaks RDP's negotiation.
// Differences from nuclei, on purpose: CheckRDPAuth negotiates CredSSP and TLS first as the protocol
// requires (nuclei sends the NTLM message on the bare connection, which servers do not answer), fills
// the AV-pair names (fingerprintx never does), and CheckRDPEncryption's encryption levels (RC4_*,
// FIPS140_1) are not probed and always false: telling them needs an MCS connect exchange.
import { tls } from '../../../lazy.ts';
import { bounded, connectTcp, HostEnv, portOf, text, type HostOp } from '../host.ts';
import { firstAnswer, sendRecv } from './probe.ts';

const PROTOCOL = { NativeRDP: 0, SSL: 1, CredSSP: 2, RDSTLS: 4, CredSSPWithEarlyUserAuth: 8 } as const;

/** X.224 connection request (TPKT + CR TPDU) with an RDP negotiation request for `protocols`. */
function connectionRequest(protocols: number): Buffer {
  const b = Buffer.from([0x03, 0x00, 0x00, 0x13, 0x0e, 0xe0, 0, 0, 0, 0, 0, 0x01, 0x00, 0x08, 0x00, 0, 0, 0, 0]);
  b.writeUInt32LE(protocols, 15);
  return b;
}

/** The connection confirm every RDP server sends (fingerprintx's generic signature, source reference 0x1234). */
const CONFIRM = Buffer.from([0x03, 0x00, 0x00, 0x13, 0x0e, 0xd0, 0x00, 0x00, 0x12, 0x34, 0x00]);

const OS_SIGNATURES: [string, number[]][] = [
  ['Windows 2000', [0x03, 0x00, 0x00, 0x0b, 0x06, 0xd0, 0x00, 0x00, 0x12, 0x34, 0x00]],
  ['Windows Server 2003', [...CONFIRM, 0x03, 0x00, 0x08, 0x00, 0x02, 0x00, 0x00, 0x00]],
  ['Windows Server 2008', [...CONFIRM, 0x02, 0x00, 0x08, 0x00, 0x02, 0x00, 0x00, 0x00]],
  ['Windows 7 or Server 2008 R2', [...CONFIRM, 0x02, 0x09, 0x08, 0x00, 0x02, 0x00, 0x00, 0x00]],
  ['Windows Server 2008 R2 DC', [...CONFIRM, 0x02, 0x01, 0x08, 0x00, 0x02, 0x00, 0x00, 0x00]],
  ['Windows 10', [...CONFIRM, 0x02, 0x1f, 0x08, 0x00, 0x02, 0x00, 0x00, 0x00]],
  ['Windows 8 or Server 2012', [...CONFIRM, 0x02, 0x0f, 0x08, 0x00, 0x02, 0x00, 0x00, 0x00]],
  ['Windows Server 2016 or 2019', [...CONFIRM, 0x02, 0x1f, 0x08, 0x00, 0x08, 0x00, 0x00, 0x00]],
];

const startsWith = (b: Buffer, sig: ArrayLike<number>) =>
  b.length >= sig.length && Array.prototype.every.call(sig, (x: number, i: number) => b[i] === x);

async function isRdp(env: HostEnv, host: unknown, port: unknown) {
  // Asks for SSL, CredSSP and CredSSP with early user authorization, as fingerprintx does.
  const answer = await sendRecv(env, host, port, connectionRequest(0x0b));
  if (answer.length === 0) throw new Error('rdp: the server closed the connection without answering');
  if (!startsWith(answer, CONFIRM)) throw new Error('rdp: invalid response: not an RDP server');
  const os = OS_SIGNATURES.find(([, sig]) => startsWith(answer, sig));
  return { IsRDP: true, OS: os ? os[0] : '' };
}

/** The protocol a connection confirm selected, or undefined when the server refused (or is not RDP). */
function selected(answer: Buffer): number | undefined {
  // Any X.224 connection confirm (TPKT version 3, CC TPDU): FreeRDP's source reference is 0, not 0x1234.
  if (answer.length < 11 || answer[0] !== 0x03 || answer[1] !== 0x00 || answer[5] !== 0xd0) return undefined;
  if (answer.length < 19) return PROTOCOL.NativeRDP; // an old server: no negotiation, standard security
  if (answer[11] !== 0x02) return undefined; // RDP_NEG_FAILURE
  return answer.readUInt32LE(15);
}

async function checkEncryption(env: HostEnv, host: unknown, port: unknown) {
  const out: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(PROTOCOL)) {
    const answer = await sendRecv(env, host, port, connectionRequest(value)).catch((err: unknown) => {
      if ((err as { code?: string }).code === 'EGRESS_DENIED' || /refused:/.test((err as Error).message)) throw err;
      return Buffer.alloc(0);
    });
    out[name] = selected(answer) === value;
  }
  return { ...out, RC4_40bit: false, RC4_56bit: false, RC4_128bit: false, FIPS140_1: false };
}

/** A CredSSP TSRequest carrying an NTLM NEGOTIATE message (MS-CSSP, MS-NLMP). */
const TS_REQUEST_NEGOTIATE = Buffer.concat([
  Buffer.from([0x30, 0x37, 0xa0, 0x03, 0x02, 0x01, 0x60, 0xa1, 0x30, 0x30, 0x2e, 0x30, 0x2c, 0xa0, 0x2a, 0x04, 0x28]),
  Buffer.from('NTLMSSP\0', 'latin1'),
  Buffer.from([0x01, 0, 0, 0, 0xf7, 0xba, 0xdb, 0xe2]),
  Buffer.alloc(24),
]);

const AV_NAMES: Record<number, string> = {
  1: 'NetBIOSComputerName',
  2: 'NetBIOSDomainName',
  3: 'DNSComputerName',
  4: 'DNSDomainName',
  5: 'ForestName',
};
const JSON_NAMES: Record<string, string> = {
  OSVersion: 'osVersion',
  TargetName: 'targetName',
  NetBIOSComputerName: 'netBIOSComputerName',
  NetBIOSDomainName: 'netBIOSDomainName',
  DNSComputerName: 'dnsComputerName',
  DNSDomainName: 'dnsDomainName',
  ForestName: 'forestName',
};

/** The server's NTLM CHALLENGE: its version and names, or undefined when the answer holds none. */
export function readChallenge(answer: Buffer): Record<string, string> | undefined {
  const at = answer.indexOf('NTLMSSP\0', 0, 'latin1');
  if (at < 0 || answer.length < at + 56) return undefined;
  const m = answer.subarray(at);
  const version = m.subarray(48, 56);
  if (m.readUInt32LE(8) !== 2 || m.readBigUInt64LE(32) !== 0n || version.readUInt32BE(4) !== 0x0f) return undefined;
  const ascii = (b: Buffer) => b.toString('latin1').replaceAll('\0', '');
  const info: Record<string, string> = {
    OSVersion: `${version[0]}.${version[1]}.${version.readUInt16LE(2)}`,
    TargetName: '',
    NetBIOSComputerName: '',
    NetBIOSDomainName: '',
    DNSComputerName: '',
    DNSDomainName: '',
    ForestName: '',
  };
  const nameLen = m.readUInt16LE(12);
  const nameAt = m.readUInt32LE(16);
  if (nameLen > 0 && nameAt + nameLen <= m.length) info.TargetName = ascii(m.subarray(nameAt, nameAt + nameLen));
  const infoLen = m.readUInt16LE(40);
  const infoAt = m.readUInt32LE(44);
  for (let i = infoAt; infoLen > 0 && i + 4 <= Math.min(m.length, infoAt + infoLen);) {
    const id = m.readUInt16LE(i);
    const len = m.readUInt16LE(i + 2);
    if (id === 0 || i + 4 + len > m.length) break;
    const name = AV_NAMES[id];
    if (name) info[name] = ascii(m.subarray(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return info;
}

async function checkAuth(env: HostEnv, host: unknown, port: unknown) {
  const none = { PluginInfo: null, Auth: false };
  const socket = await connectTcp(env, text(host), portOf(port));
  try {
    const confirm = await bounded(firstAnswer(socket, connectionRequest(PROTOCOL.SSL | PROTOCOL.CredSSP)), env, 'rdp');
    const chosen = selected(confirm);
    if (chosen === undefined || (chosen & (PROTOCOL.CredSSP | PROTOCOL.CredSSPWithEarlyUserAuth)) === 0) return none;
    // Network level authentication: TLS (any certificate: this is a probe, not a login), then CredSSP.
    const secure = tls().connect({ socket, rejectUnauthorized: false, servername: undefined });
    secure.on('error', () => {});
    await bounded(
      new Promise<void>((resolve, reject) => {
        secure.once('secureConnect', () => resolve());
        secure.once('error', reject);
      }),
      env,
      'rdp tls',
    );
    const challenge = readChallenge(await bounded(firstAnswer(secure, TS_REQUEST_NEGOTIATE), env, 'rdp credssp'));
    secure.destroy();
    if (!challenge) return none;
    const json: Record<string, string> = {};
    for (const [k, v] of Object.entries(challenge)) if (v) json[JSON_NAMES[k]!] = v;
    return { PluginInfo: { OSFingerprint: '', ...challenge, toJSON: json }, Auth: true };
  } finally {
    socket.destroy();
  }
}

export const rdpOps: Record<string, HostOp> = {
  'rdp.IsRDP': (env, [h, p]) => isRdp(env, h, p),
  'rdp.CheckRDPAuth': (env, [h, p]) => checkAuth(env, h, p),
  'rdp.CheckRDPEncryption': (env, [h, p]) => checkEncryption(env, h, p),
};
