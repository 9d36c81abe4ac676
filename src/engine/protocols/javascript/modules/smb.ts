// nuclei/smb (pkg/js/libs/smb): SMBClient() with
// - ConnectSMBInfoMode(host, port) -> zgrab2's SMBLog: an SMB2 negotiate (dialect 2.1, as zgrab2 sends)
//   and the first NTLMSSP session setup step, then an SMB1 negotiate on a second connection for SupportV1;
//   a server that does not answer SMB2 is asked in SMB1 (Version "SMB 1.0", NativeOs, NTLM (the LAN
//   manager string) and GroupName from an SMB1 session setup). null when neither answers.
// - ListSMBv2Metadata(host, port) -> fingerprintx's ServiceSMB: signing enabled/required from an SMB 2.0.2
//   negotiate, OSVersion and the NetBIOS/DNS names from the NTLM challenge. null when not SMB2.
// - ListShares(host, port, user, password) -> the share names (NTLMv2 login, srvsvc NetrShareEnum); a
//   refused login is an error. Guest logins work as on the server (e.g. `map to guest = bad user`).
// Objects keep Go's field names, as goja shows them (and JSON.stringify writes them). Every connection
// goes to the scan's target through the engine's guard. DetectSMBGhost is not supported.
import { portOf, text, type HostEnv, type HostOp } from '../host.ts';
import { negotiateMessage, parseChallenge, PROBE_FLAGS } from './smb/ntlm.ts';
import { listShares } from './smb/rpc.ts';
import { Session } from './smb/session.ts';
import {
  CMD,
  NTLMSSP_OID,
  oids,
  negotiateBody,
  negotiateV1,
  ntlmToken,
  parseNegotiate,
  parseSessionSetup,
  parseSessionSetupV1,
  sessionSetupBody,
  sessionSetupV1,
  smb2,
  spnegoInit as spnego,
  SPNEGO_OID,
  STATUS,
  unixSeconds,
  Wire,
  type Smb2Header,
} from './smb/wire.ts';

async function withWire<T>(env: HostEnv, host: unknown, port: unknown, fn: (w: Wire) => Promise<T>): Promise<T> {
  const w = await Wire.open(env, text(host), portOf(port));
  try {
    return await fn(w);
  } finally {
    w.close();
  }
}

const bytes = (b: Buffer) => [...b];
const headerLog = (h: Smb2Header) => ({
  ProtocolID: bytes(h.protocolId),
  Status: h.status,
  Command: h.command,
  Credits: h.credits,
  Flags: h.flags,
});
/** goja shows an embedded struct both under its type name and promoted into the outer object. */
const withHeader = (h: Smb2Header, rest: Record<string, unknown>) => {
  const log = headerLog(h);
  return { HeaderLog: log, ...log, ...rest };
};

function versionOf(dialect: number) {
  const major = (dialect >> 8) & 0x0f;
  const minor = (dialect >> 4) & 0x0f;
  const revision = dialect & 0x0f;
  return {
    Major: major,
    Minor: minor,
    Revision: revision,
    VerString: revision > 0 ? `SMB ${major}.${minor}.${revision}` : `SMB ${major}.${minor}`,
  };
}

/** The capability bits zgrab2 reports for a dialect (MS-SMB2 2.2.4: which bits each dialect defines). */
function capabilitiesOf(dialect: number, caps: number) {
  const mask: Record<number, number> = { 0x0202: 0x01, 0x0210: 0x07, 0x0311: 0x3f, 0x0300: 0x7f, 0x0302: 0x7f };
  const c = caps & (mask[dialect] ?? 0);
  return {
    DFSSupport: (c & 0x01) !== 0,
    Leasing: (c & 0x02) !== 0,
    LargeMTU: (c & 0x04) !== 0,
    MultiChan: (c & 0x08) !== 0,
    Persist: (c & 0x10) !== 0,
    DirLeasing: (c & 0x20) !== 0,
    Encryption: (c & 0x40) !== 0,
  };
}

interface SmbLog {
  SupportV1: boolean;
  Version: Record<string, unknown> | null;
  NativeOs: string;
  NTLM: string;
  GroupName: string;
  Capabilities: Record<string, boolean> | null;
  HasNTLM: boolean;
  NegotiationLog: Record<string, unknown> | null;
  SessionSetupLog: Record<string, unknown> | null;
}

const emptyLog = (): SmbLog => ({
  SupportV1: false,
  Version: null,
  NativeOs: '',
  NTLM: '',
  GroupName: '',
  Capabilities: null,
  HasNTLM: false,
  NegotiationLog: null,
  SessionSetupLog: null,
});

const V1_VERSION = { Major: 1, Minor: 0, Revision: 0, VerString: 'SMB 1.0' };
const KNOWN_DIALECTS = [0x0202, 0x0210, 0x0300, 0x0302, 0x0311];

/** zgrab2's SMB2 negotiate and first session setup step; throws where zgrab2 returns an error. */
async function infoV2(w: Wire): Promise<SmbLog> {
  const negm = await w.exchange(
    smb2({ command: CMD.NEGOTIATE, messageId: 0n, creditCharge: 1, credits: 0, body: negotiateBody([0x0210]) }),
    'smb negotiate',
  );
  const log = emptyLog();
  if (negm.toString('latin1', 0, 4) === '\xffSMB') {
    // An SMB1-only server answering in SMB1: zgrab2 cannot read it as SMB2 and gives up on this path.
    throw new Error('smb: SMB1 answer to an SMB2 negotiate');
  }
  const neg = parseNegotiate(negm);
  if (KNOWN_DIALECTS.includes(neg.dialect)) {
    log.Version = versionOf(neg.dialect);
    log.Capabilities = capabilitiesOf(neg.dialect, neg.capabilities);
  } else log.Version = { Major: 0, Minor: 0, Revision: 0, VerString: '' };
  const negLog: Record<string, unknown> = withHeader(neg.header, {
    SecurityMode: neg.securityMode,
    DialectRevision: neg.dialect,
    ServerGuid: bytes(neg.serverGuid),
    Capabilities: neg.capabilities,
    SystemTime: unixSeconds(neg.systemTime),
    ServerStartTime: unixSeconds(neg.serverStartTime),
    AuthenticationTypes: null,
  });
  log.NegotiationLog = negLog;
  if (neg.header.status !== STATUS.OK) throw new Error(`NT Status Error: ${neg.header.status}`);
  const found = oids(neg.securityBlob);
  if (found[0] !== SPNEGO_OID) throw new Error('Unknown security type OID');
  const mechs = found.slice(1);
  negLog.AuthenticationTypes = mechs;
  log.HasNTLM = mechs.includes(NTLMSSP_OID);

  const ssm = await w.exchange(
    smb2({
      command: CMD.SESSION_SETUP,
      messageId: 1n,
      creditCharge: 1,
      credits: 0,
      body: sessionSetupBody(spnego(negotiateMessage())),
    }),
    'smb session setup',
  );
  const ss = parseSessionSetup(ssm);
  const token = ntlmToken(ss.token);
  if (!token) throw new Error('smb: no NTLM challenge');
  const challenge = parseChallenge(token);
  log.SessionSetupLog = withHeader(ss.header, { SetupFlags: ss.flags, TargetName: '', NegotiateFlags: 0 });
  if (ss.header.status !== STATUS.MORE_PROCESSING) throw new Error('NT Status Error');
  log.SessionSetupLog.TargetName = challenge.targetName;
  log.SessionSetupLog.NegotiateFlags = challenge.flags;
  return log;
}

/** zgrab2's SMB1 probe: negotiate "NT LM 0.12"; with `setup`, an anonymous session setup for the OS strings. */
async function infoV1(w: Wire, setup: boolean): Promise<SmbLog | undefined> {
  const m = await w.exchange(negotiateV1(), 'smb1 negotiate');
  if (m.toString('latin1', 0, 4) !== '\xffSMB') return undefined;
  // zgrab2 stops at the SMB1 signature; a server with SMB1 off still answers in SMB1 format, choosing no
  // dialect (index 0xffff), so SMB1 counts as supported here only when "NT LM 0.12" was accepted.
  if (m.length < 35 || m.readUInt32LE(5) !== 0 || m[32]! < 1 || m.readUInt16LE(33) === 0xffff) return undefined;
  const log = emptyLog();
  log.SupportV1 = true;
  log.Version = { ...V1_VERSION };
  if (setup) {
    try {
      const r = parseSessionSetupV1(await w.exchange(sessionSetupV1(), 'smb1 session setup'));
      if (r) {
        log.NativeOs = r.nativeOs;
        log.NTLM = r.lanMan;
        log.GroupName = r.domain;
      }
    } catch {
      // zgrab2 keeps what the negotiate said
    }
  }
  return log;
}

async function connectInfoMode(env: HostEnv, host: unknown, port: unknown): Promise<SmbLog | null> {
  let v2: SmbLog | undefined;
  try {
    v2 = await withWire(env, host, port, infoV2);
  } catch (err) {
    if (isRefusal(err)) throw err;
  }
  if (v2) {
    try {
      const v1 = await withWire(env, host, port, (w) => infoV1(w, false));
      if (v1?.SupportV1) v2.SupportV1 = true;
    } catch (err) {
      if (isRefusal(err)) throw err;
    }
    return v2;
  }
  try {
    return (await withWire(env, host, port, (w) => infoV1(w, true))) ?? null;
  } catch (err) {
    if (isRefusal(err)) throw err;
    return null;
  }
}

const isRefusal = (err: unknown) =>
  (err as { code?: string }).code === 'EGRESS_DENIED' || /refused:/.test((err as Error).message ?? '');

/** fingerprintx's DetectSMBv2: null when the answer is not SMB2. */
async function smbv2Metadata(env: HostEnv, host: unknown, port: unknown) {
  return withWire(env, host, port, async (w) => {
    const m = await w.exchange(
      smb2({ command: CMD.NEGOTIATE, messageId: 0n, credits: 31, body: negotiateBody([0x0202]) }),
      'smb negotiate',
    );
    if (m.length < 128 || m.toString('latin1', 0, 4) !== '\xfeSMB') return null;
    if (m.readUInt16LE(4) !== 0x40 || m.readUInt16LE(12) !== 0 || m.readUInt16LE(64) !== 0x41) return null;
    const mode = m.readUInt16LE(66);
    const info = {
      SigningEnabled: (mode & 1) === 1,
      SigningRequired: (mode & 2) === 2,
      OSVersion: '',
      NetBIOSComputerName: '',
      NetBIOSDomainName: '',
      DNSComputerName: '',
      DNSDomainName: '',
      ForestName: '',
    };
    const ss = await w.exchange(
      smb2({
        command: CMD.SESSION_SETUP,
        messageId: 1n,
        credits: 32,
        body: sessionSetupBody(spnego(negotiateMessage(PROBE_FLAGS))),
      }),
      'smb session setup',
    );
    const token = ntlmToken(ss);
    if (!token || token.length < 56) return info;
    let c;
    try {
      c = parseChallenge(token);
    } catch {
      return info;
    }
    if (!token.subarray(32, 40).equals(Buffer.alloc(8)) || !c.version.subarray(4).equals(Buffer.from([0, 0, 0, 15])))
      return info;
    info.OSVersion = `${c.version[0]}.${c.version[1]}.${c.version.readUInt16LE(2)}`;
    info.NetBIOSComputerName = c.av.get(1) ?? '';
    info.NetBIOSDomainName = c.av.get(2) ?? '';
    info.DNSComputerName = c.av.get(3) ?? '';
    info.DNSDomainName = c.av.get(4) ?? '';
    info.ForestName = c.av.get(5) ?? '';
    return info;
  });
}

async function shares(env: HostEnv, host: unknown, port: unknown, user: unknown, password: unknown) {
  return withWire(env, host, port, async (w) => {
    const s = new Session(w);
    await s.login(text(user), text(password));
    try {
      return await listShares(s, text(host));
    } finally {
      await s.logoff();
    }
  });
}

export const smbOps: Record<string, HostOp> = {
  'smb.ConnectSMBInfoMode': (env, [h, p]) => connectInfoMode(env, h, p),
  'smb.ListSMBv2Metadata': (env, [h, p]) => smbv2Metadata(env, h, p),
  'smb.ListShares': (env, [h, p, u, pw]) => shares(env, h, p, u, pw),
  'smb.DetectSMBGhost': () => {
    throw new Error('DetectSMBGhost is not supported on this platform');
  },
};
