// nuclei/ssh (pkg/js/libs/ssh, over zgrab2's ssh): SSHClient().ConnectSSHInfoMode(host, port) -> the
// handshake log without logging in (ServerID, the server's KEXINIT lists in ServerKex, the negotiated
// AlgorithmSelection, the host key in DHKeyExchange.server_host_key, and UserAuth: the methods the server
// offers after a "none" attempt); Connect(host, port, user, password) (password, then keyboard-
// interactive answering password prompts), ConnectWithKey(host, port, user, privateKey), Run(cmd) ->
// stdout, SetTimeout(sec), Close. Over the ssh2 package on a socket dialled through the engine's guard.
//
// As in nuclei, the Go objects keep their field names in the script (response.ServerKex.KexAlgos) while
// their JSON (Export, to_json) uses zgrab2's names (kex_algorithms, client_to_server_macs ...): the
// objects handed to the script carry both, the JSON form under `toJSON` data the prelude turns into a method.
import type net from 'node:net';
import type { Client, ClientChannel, ConnectConfig } from 'ssh2';
import { crypto, lazy } from '../../../lazy.ts';
import { bounded, connectTcp, HostEnv, portOf, text, type Handle, type HostOp } from '../host.ts';

// Loaded on a template's first SSH call: `vigil scan` starts without it (and ssh2's optional native parts
// stay out of the scan bundle).
const ssh2 = lazy<typeof import('ssh2')>('ssh2');

const CLIENT_IDENT = 'SSH-2.0-Go';
/** What Run keeps of a command's output. */
const MAX_OUTPUT = 1024 * 1024;

interface SshHandle extends Handle {
  client: Client;
}

/** The server's identification line, e.g. SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3. */
function endpointId(raw: string) {
  const m = /^SSH-([^-]*)-([^ ]*)(?: (.*))?$/.exec(raw);
  return { Raw: raw, ProtoVersion: m?.[1] ?? '', SoftwareVersion: m?.[2] ?? '', Comment: m?.[3] ?? '' };
}

const KEX_FIELDS: [string, string][] = [
  ['KexAlgos', 'kex_algorithms'],
  ['ServerHostKeyAlgos', 'host_key_algorithms'],
  ['CiphersClientServer', 'client_to_server_ciphers'],
  ['CiphersServerClient', 'server_to_client_ciphers'],
  ['MACsClientServer', 'client_to_server_macs'],
  ['MACsServerClient', 'server_to_client_macs'],
  ['CompressionClientServer', 'client_to_server_compression'],
  ['CompressionServerClient', 'server_to_client_compression'],
  ['LanguagesClientServer', 'client_to_server_languages'],
  ['LanguagesServerClient', 'server_to_client_languages'],
];

/** Reads the server's identification line and its (unencrypted) KEXINIT from the first bytes it sends. */
class ServerHello {
  private buf = Buffer.alloc(0);
  ident: string | undefined;
  kexinit: Record<string, unknown> | undefined;
  banner = '';

  feed(d: Buffer): void {
    if (this.kexinit || this.buf.length > 256 * 1024) return;
    this.buf = Buffer.concat([this.buf, d]);
    while (this.ident === undefined) {
      const nl = this.buf.indexOf('\n');
      if (nl < 0) return;
      const line = this.buf.subarray(0, nl).toString('latin1').replace(/\r$/, '');
      this.buf = this.buf.subarray(nl + 1);
      if (line.startsWith('SSH-')) this.ident = line;
      else this.banner += line + '\n';
    }
    if (this.buf.length < 5) return;
    const len = this.buf.readUInt32BE(0);
    if (len > 256 * 1024 || this.buf.length < 4 + len) return;
    const pad = this.buf[4]!;
    const payload = this.buf.subarray(5, 4 + len - pad);
    if (payload[0] !== 20) return;
    this.kexinit = parseKexInit(payload);
  }
}

function parseKexInit(p: Buffer): Record<string, unknown> {
  let at = 17; // message number and 16 bytes of cookie
  const lists: string[][] = [];
  for (let i = 0; i < 10; i++) {
    const n = p.readUInt32BE(at);
    const s = p.subarray(at + 4, at + 4 + n).toString('latin1');
    lists.push(s === '' ? [] : s.split(','));
    at += 4 + n;
  }
  const out: Record<string, unknown> = { Cookie: p.subarray(1, 17).toString('base64') };
  const json: Record<string, unknown> = { cookie: p.subarray(1, 17).toString('base64') };
  KEX_FIELDS.forEach(([go, tag], i) => {
    out[go] = lists[i];
    if (lists[i]!.length > 0 || i < 8) json[tag] = lists[i];
  });
  out.FirstKexFollows = p[at] === 1;
  out.Reserved = 0;
  json.first_kex_follows = p[at] === 1;
  json.reserved = 0;
  out.toJSON = json;
  return out;
}

/** zgrab2's server_host_key: the raw key, its algorithm, SHA-256 fingerprint and the key's size. */
function hostKey(raw: Buffer): Record<string, unknown> {
  const out: Record<string, unknown> = {
    raw: raw.toString('base64'),
    fingerprint_sha256: crypto().createHash('sha256').update(raw).digest('hex'),
  };
  try {
    let at = 0;
    const str = () => {
      const n = raw.readUInt32BE(at);
      const v = raw.subarray(at + 4, at + 4 + n);
      at += 4 + n;
      return v;
    };
    const algorithm = str().toString('latin1');
    out.algorithm = algorithm;
    const bits = (b: Buffer) => {
      const i = b.findIndex((x) => x !== 0);
      return i < 0 ? 0 : (b.length - i - 1) * 8 + (32 - Math.clz32(b[i]!));
    };
    if (algorithm === 'ssh-rsa') {
      const e = str();
      const n = str();
      out.rsa_public_key = {
        exponent: parseInt(e.toString('hex') || '0', 16),
        modulus: n.toString('base64'),
        length: bits(n),
      };
    } else if (algorithm.startsWith('ecdsa-sha2-')) {
      const curve = str().toString('latin1');
      const q = str();
      const length = { nistp256: 256, nistp384: 384, nistp521: 521 }[curve] ?? ((q.length - 1) / 2) * 8;
      out.ecdsa_public_key = { curve: curve.replace('nistp', 'P-'), length, public: q.toString('base64') };
    } else if (algorithm === 'ssh-ed25519') {
      out.ed25519_public_key = { public_bytes: str().toString('base64') };
    }
  } catch {
    // a key blob we cannot read: raw and fingerprint only
  }
  return out;
}

function baseConfig(env: HostEnv, sock: net.Socket, user: string): ConnectConfig {
  return {
    sock,
    username: user,
    readyTimeout: env.timeoutMs,
    ident: CLIENT_IDENT.slice('SSH-2.0-'.length),
    hostVerifier: () => true,
  };
}

async function infoMode(env: HostEnv, host: unknown, port: unknown): Promise<Record<string, unknown>> {
  const sock = await connectTcp(env, text(host), portOf(port));
  const hello = new ServerHello();
  sock.on('data', (d: Buffer) => hello.feed(d));
  const client = new (ssh2().Client)();
  let key: Buffer | undefined;
  let userAuth: string[] = [];
  let selection: Record<string, unknown> | undefined;
  let tried = false;
  try {
    await bounded(
      new Promise<void>((resolve, reject) => {
        client.on('handshake', (n) => {
          selection = {
            Kex: n.kex,
            HostKey: n.serverHostKey,
            W: { Cipher: n.cs.cipher, MAC: n.cs.mac, Compression: n.cs.compress },
            R: { Cipher: n.sc.cipher, MAC: n.sc.mac, Compression: n.sc.compress },
            toJSON: {
              dh_kex_algorithm: n.kex,
              host_key_algorithm: n.serverHostKey,
              client_to_server_alg_group: { cipher: n.cs.cipher, mac: n.cs.mac, compression: n.cs.compress },
              server_to_client_alg_group: { cipher: n.sc.cipher, mac: n.sc.mac, compression: n.sc.compress },
            },
          };
        });
        client.on('ready', () => resolve()); // a server that lets "none" in
        client.on('error', (err) => (tried ? resolve() : reject(err)));
        client.on('close', () => (tried ? resolve() : reject(new Error('ssh: handshake failed'))));
        client.connect({
          ...baseConfig(env, sock, 'root'),
          hostVerifier: (k: Buffer) => {
            key = k;
            return true;
          },
          authHandler: (methodsLeft, _partial, next) => {
            if (methodsLeft === null) {
              tried = true;
              return next({ type: 'none', username: 'root' });
            }
            userAuth = [...methodsLeft];
            next(false as never);
          },
        });
      }),
      env,
      'ssh handshake',
    );
  } finally {
    client.end();
    sock.destroy();
  }
  if (!hello.ident) throw new Error('ssh: no identification from the server');
  const log: Record<string, unknown> = {};
  if (hello.banner.trim()) log.Banner = hello.banner.trim();
  log.ServerID = endpointId(hello.ident);
  log.ClientID = endpointId(CLIENT_IDENT);
  if (hello.kexinit) log.ServerKex = hello.kexinit;
  if (selection) log.AlgorithmSelection = selection;
  if (key) log.DHKeyExchange = { server_host_key: hostKey(key) };
  log.UserAuth = userAuth;
  return log;
}

async function login(
  env: HostEnv,
  args: unknown[],
  auth: (c: ConnectConfig) => ConnectConfig,
): Promise<{ handle: number; value: boolean }> {
  const [, host, port, user] = args;
  const sock = await connectTcp(env, text(host), portOf(port));
  const client = new (ssh2().Client)();
  const handle: SshHandle = {
    kind: 'ssh',
    client,
    close: () => {
      client.end();
      sock.destroy();
    },
  };
  const id = env.add(handle);
  try {
    await bounded(
      new Promise<void>((resolve, reject) => {
        client.on('ready', () => resolve());
        client.on('error', reject);
        client.on('close', () => reject(new Error('ssh: connection closed')));
        client.connect(auth(baseConfig(env, sock, text(user))));
      }),
      env,
      'ssh login',
    );
  } catch (err) {
    env.drop(id);
    throw err;
  }
  if (args[0] !== null && args[0] !== undefined) env.drop(args[0]); // a client connects once more: the old one goes
  return { handle: id, value: true };
}

async function run(env: HostEnv, id: unknown, cmd: unknown): Promise<string> {
  if (id === null || id === undefined) throw new Error('no connection');
  const { client } = env.get<SshHandle>(id, 'ssh');
  return bounded(
    new Promise<string>((resolve, reject) => {
      client.exec(text(cmd), (err: Error | undefined, ch: ClientChannel) => {
        if (err) return reject(err);
        let out = '';
        ch.on('data', (d: Buffer) => {
          if (out.length < MAX_OUTPUT) out += d.toString('utf8');
        });
        ch.stderr.on('data', () => {});
        ch.on('close', (code: number | null) =>
          code === 0 || code === null ? resolve(out) : reject(new Error(`Process exited with status ${code}`)),
        );
      });
    }),
    env,
    'ssh command',
  );
}

export const sshOps: Record<string, HostOp> = {
  'ssh.ConnectSSHInfoMode': (env, [, h, p]) => infoMode(env, h, p),
  'ssh.Connect': (env, args) =>
    login(env, args, (c) => {
      const password = text(args[4]);
      return {
        ...c,
        password,
        tryKeyboard: true,
        authHandler: ['password', 'keyboard-interactive'].map((type) =>
          type === 'password'
            ? { type: 'password' as const, username: c.username!, password }
            : {
                type: 'keyboard-interactive' as const,
                username: c.username!,
                prompt: (
                  _n: string,
                  _i: string,
                  _l: string,
                  prompts: { prompt: string; echo?: boolean }[],
                  finish: (a: string[]) => void,
                ) =>
                  finish(
                    prompts.map((q) =>
                      !q.echo && /pass(word|phrase|code)?|pin/i.test(q.prompt)
                        ? password
                        : q.echo && /user(name)?|login/i.test(q.prompt)
                          ? c.username!
                          : '',
                    ),
                  ),
              },
        ),
      };
    }),
  'ssh.ConnectWithKey': (env, args) =>
    login(env, args, (c) => ({ ...c, privateKey: text(args[4]), authHandler: undefined })),
  'ssh.Run': (env, [id, cmd]) => run(env, id, cmd),
  'ssh.SetTimeout': () => null,
  'ssh.Close': (env, [id]) => {
    if (id === null || id === undefined) throw new Error('no connection');
    env.drop(id);
    return { handle: null, value: true };
  },
};
