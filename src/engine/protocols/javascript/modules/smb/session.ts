// An authenticated SMB2 session, as go-smb2 opens one for nuclei's ListShares: negotiate (dialects 2.0.2
// and 2.1 here: their signing is HMAC-SHA256 over the session key, with no key derivation), NTLMv2
// session setup wrapped in SPNEGO, then tree connect, and the named-pipe I/O (create, write, read, close)
// that DCE/RPC runs over. Messages are signed when the server requires it of a non-guest session.
import { crypto } from '../../../../lazy.ts';
import { authenticateMessage, negotiateMessage, parseChallenge } from './ntlm.ts';
import {
  CMD,
  STATUS,
  Wire,
  negotiateBody,
  ntlmToken,
  parseNegotiate,
  parseSessionSetup,
  parseSmb2,
  sessionSetupBody,
  smb2,
  spnegoInit,
  spnegoResp,
} from './wire.ts';

const STATUS_TEXT: Record<number, string> = {
  0xc000006d: 'STATUS_LOGON_FAILURE',
  0xc0000022: 'STATUS_ACCESS_DENIED',
  0xc00000cc: 'STATUS_BAD_NETWORK_NAME',
  0xc0000072: 'STATUS_ACCOUNT_DISABLED',
  0xc0000034: 'STATUS_OBJECT_NAME_NOT_FOUND',
  0xc0000203: 'STATUS_USER_SESSION_DELETED',
};

export class SmbStatusError extends Error {
  constructor(
    what: string,
    readonly status: number,
  ) {
    super(`${what}: ${STATUS_TEXT[status] ?? `NT status 0x${status.toString(16).padStart(8, '0')}`}`);
  }
}

export class Session {
  private messageId = 0n;
  private sessionId = 0n;
  private treeId = 0;
  private signingKey: Buffer | undefined;
  private maxRead = 65536;

  constructor(private readonly wire: Wire) {}

  private async call(command: number, body: Buffer, what: string, ok: number[] = [STATUS.OK]) {
    const messageId = this.messageId++;
    let msg = smb2({
      command,
      messageId,
      sessionId: this.sessionId,
      treeId: this.treeId,
      creditCharge: 1,
      body,
      flags: this.signingKey ? 0x08 : 0,
    });
    if (this.signingKey) msg = sign(msg, this.signingKey);
    this.wire.send(msg);
    for (;;) {
      const m = await this.wire.receive(what);
      const h = parseSmb2(m);
      if (h.messageId !== messageId) continue;
      if (h.status === STATUS.PENDING && h.flags & 0x02) continue; // an interim async answer: the real one follows
      if (!ok.includes(h.status)) throw new SmbStatusError(what, h.status);
      return { m, h };
    }
  }

  async login(user: string, password: string, domain = ''): Promise<void> {
    const { m: negm } = await this.call(CMD.NEGOTIATE, negotiateBody([0x0202, 0x0210]), 'smb negotiate');
    const neg = parseNegotiate(negm);
    this.maxRead = Math.max(4096, Math.min(neg.maxRead || 65536, 65536));
    const first = await this.call(
      CMD.SESSION_SETUP,
      sessionSetupBody(spnegoInit(negotiateMessage())),
      'smb session setup',
      [STATUS.MORE_PROCESSING],
    );
    this.sessionId = first.h.sessionId;
    const token = ntlmToken(parseSessionSetup(first.m).token);
    if (!token) throw new Error('smb session setup: the server sent no NTLM challenge');
    const auth = authenticateMessage(parseChallenge(token), user, password, domain);
    const second = await this.call(CMD.SESSION_SETUP, sessionSetupBody(spnegoResp(auth.message)), 'smb session setup');
    const flags = parseSessionSetup(second.m).flags;
    const guest = (flags & 0x03) !== 0;
    if (neg.securityMode & 0x02 && !guest) this.signingKey = auth.sessionKey;
  }

  async treeConnect(host: string, share: string): Promise<void> {
    const path = Buffer.from(`\\\\${host}\\${share}`, 'utf16le');
    const b = Buffer.alloc(8);
    b.writeUInt16LE(9, 0);
    b.writeUInt16LE(64 + 8, 4);
    b.writeUInt16LE(path.length, 6);
    const { h } = await this.call(CMD.TREE_CONNECT, Buffer.concat([b, path]), `smb tree connect ${share}`);
    this.treeId = h.treeId;
  }

  /** Opens a named pipe of the connected IPC$ tree; returns its file id. */
  async openPipe(name: string): Promise<Buffer> {
    const n = Buffer.from(name, 'utf16le');
    const b = Buffer.alloc(56);
    b.writeUInt16LE(57, 0);
    b.writeUInt32LE(2, 4); // impersonation
    b.writeUInt32LE(0x0012019f, 24); // read, write, attributes, synchronize
    b.writeUInt32LE(7, 32); // share read, write, delete
    b.writeUInt32LE(1, 36); // FILE_OPEN
    b.writeUInt32LE(0x40, 40); // FILE_NON_DIRECTORY_FILE
    b.writeUInt16LE(64 + 56, 44);
    b.writeUInt16LE(n.length, 46);
    const { m } = await this.call(CMD.CREATE, Buffer.concat([b, n]), `smb open pipe ${name}`);
    return Buffer.from(m.subarray(64 + 64, 64 + 80));
  }

  async write(fileId: Buffer, data: Buffer): Promise<void> {
    const b = Buffer.alloc(48);
    b.writeUInt16LE(49, 0);
    b.writeUInt16LE(64 + 48, 2);
    b.writeUInt32LE(data.length, 4);
    fileId.copy(b, 16);
    await this.call(CMD.WRITE, Buffer.concat([b, data]), 'smb pipe write');
  }

  /** One read of a pipe message; `more` when the message goes on (STATUS_BUFFER_OVERFLOW). */
  async read(fileId: Buffer): Promise<{ data: Buffer; more: boolean }> {
    const b = Buffer.alloc(49);
    b.writeUInt16LE(49, 0);
    b.writeUInt8(0x50, 2);
    b.writeUInt32LE(this.maxRead, 4);
    fileId.copy(b, 16);
    const { m, h } = await this.call(CMD.READ, b, 'smb pipe read', [STATUS.OK, STATUS.BUFFER_OVERFLOW]);
    const off = m.readUInt8(64 + 2);
    const len = m.readUInt32LE(64 + 4);
    return { data: Buffer.from(m.subarray(off, off + len)), more: h.status === STATUS.BUFFER_OVERFLOW };
  }

  async closeFile(fileId: Buffer): Promise<void> {
    const b = Buffer.alloc(24);
    b.writeUInt16LE(24, 0);
    fileId.copy(b, 8);
    await this.call(CMD.CLOSE, b, 'smb close').catch(() => {});
  }

  async logoff(): Promise<void> {
    const b = Buffer.alloc(4);
    b.writeUInt16LE(4, 0);
    await this.call(CMD.LOGOFF, b, 'smb logoff').catch(() => {});
  }
}

/** SMB 2.x signing: HMAC-SHA256 of the message (signature field zero) with the session key, first 16 bytes. */
function sign(msg: Buffer, key: Buffer): Buffer {
  const out = Buffer.from(msg);
  out.fill(0, 48, 64);
  crypto().createHmac('sha256', key).update(out).digest().copy(out, 48, 0, 16);
  return out;
}
