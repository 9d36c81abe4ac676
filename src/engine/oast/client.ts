// The engine's interactsh client (nuclei's pkg/protocols/common/interactsh, read for its rules): one
// registration per scan with an RSA key of its own; every {{interactsh-url}} a request uses gets a fresh
// name <correlation id><nonce>.<domain>; the server is polled every `pollMs`; an interaction is handed to
// whoever waits for its name (a request whose operators read interactsh_* parts), or kept a while in case
// the wait is registered just after; a wait is dropped after `evictionMs`; at the end the client keeps
// polling until `cooldownMs` have passed since the last name was handed out, then deregisters.
import {
  createDecipheriv,
  generateKeyPair,
  privateDecrypt,
  randomBytes,
  randomUUID,
  constants,
  type KeyObject,
} from 'node:crypto';

export interface OastInteraction {
  protocol: string;
  'unique-id': string;
  'full-id': string;
  'q-type'?: string;
  'raw-request'?: string;
  'raw-response'?: string;
  'smtp-from'?: string;
  'remote-address': string;
  timestamp: string;
}

export interface OastClientOptions {
  /** The server's client API: a URL, or a bare host (https:// then). */
  server: string;
  /** The domain names are made under; the server URL's host when unset. */
  domain?: string;
  /** Sent as the Authorization header (interactsh's -token). */
  token?: string;
  pollMs?: number;
  cooldownMs?: number;
  evictionMs?: number;
  /** Problems worth saying once (a failed poll). */
  onNotice?: (message: string) => void;
  /**
   * Another way to the server's client API than HTTP to `server` (a `vigil agent` relays through the
   * platform's API): called with the operation and its fields, returns the server's JSON answer.
   */
  transport?: OastTransport;
}

/** The interactsh client API's three operations, with interactsh's field names. */
export type OastOperation = 'register' | 'poll' | 'deregister';
export type OastTransport = (op: OastOperation, fields: Record<string, string>) => Promise<unknown>;

/** Returns true when the interaction settled the wait (no more are handed to it). */
export type InteractionHandler = (i: OastInteraction) => boolean;

const CORRELATION_ID_LENGTH = 20;
const NONCE_LENGTH = 13;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** How long an interaction nobody waits for yet is kept (nuclei: 60 s). */
const UNCLAIMED_MS = 60_000;

function randomId(n: number): string {
  const bytes = randomBytes(n);
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHABET[bytes[i]! % ALPHABET.length];
  return s;
}

export function serverUrl(server: string): URL {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(server) ? server : `https://${server}`;
  const u = new URL(text);
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(`interactsh server: use an http(s) URL, not ${u.protocol}`);
  return u;
}

/**
 * Decrypts one sealed interaction: AES-256-CTR with the IV in front (interactsh since 2025), else CFB (older
 * servers). Both modes give the same first block, so the text that parses as JSON decides.
 */
export function openSealed(key: Buffer, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < 17) return undefined;
  for (const mode of ['aes-256-ctr', 'aes-256-cfb'] as const) {
    const d = createDecipheriv(mode, key, bytes.subarray(0, 16));
    const text = Buffer.concat([d.update(bytes.subarray(16)), d.final()])
      .toString('utf8')
      .trim();
    try {
      JSON.parse(text);
      return text;
    } catch {
      // not this mode
    }
  }
  return undefined;
}

interface Wait {
  handler: InteractionHandler;
  until: number;
}

export class OastClient {
  readonly domain: string;
  private readonly base: URL;
  private readonly correlationId = randomId(CORRELATION_ID_LENGTH);
  private readonly secret = randomUUID();
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private aesKey: Buffer | undefined;
  private wrappedKey = '';
  private readonly waits = new Map<string, Wait>();
  private readonly unclaimed = new Map<string, { items: OastInteraction[]; until: number }>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private lastUrlAt = 0;
  private noticed = false;
  private closed = false;
  readonly pollMs: number;
  readonly cooldownMs: number;
  readonly evictionMs: number;

  private constructor(
    private readonly o: OastClientOptions,
    pair: { privateKey: KeyObject; publicKey: KeyObject },
  ) {
    this.base = serverUrl(o.server);
    this.domain = (o.domain ?? this.base.hostname).toLowerCase();
    this.pollMs = o.pollMs ?? 5000;
    this.cooldownMs = o.cooldownMs ?? 5000;
    this.evictionMs = o.evictionMs ?? 60_000;
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  /** Registers with the server and starts polling; throws with the server's message when it refuses. */
  static async connect(o: OastClientOptions): Promise<OastClient> {
    // Off the event loop: a 2048-bit key takes tens of milliseconds or more.
    const pair = await new Promise<{ privateKey: KeyObject; publicKey: KeyObject }>((resolve, reject) =>
      generateKeyPair('rsa', { modulusLength: 2048 }, (err, publicKey, privateKey) =>
        err ? reject(err) : resolve({ publicKey, privateKey }),
      ),
    );
    const c = new OastClient(o, pair);
    // interactsh sends the PKIX (SubjectPublicKeyInfo) DER under an "RSA PUBLIC KEY" label, base64 again.
    const der = c.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const pem = `-----BEGIN RSA PUBLIC KEY-----\n${der.match(/.{1,64}/g)!.join('\n')}\n-----END RSA PUBLIC KEY-----\n`;
    await c.call('register', {
      'public-key': Buffer.from(pem).toString('base64'),
      'secret-key': c.secret,
      'correlation-id': c.correlationId,
    });
    c.timer = setInterval(() => void c.poll(), c.pollMs);
    c.timer.unref();
    return c;
  }

  /** A fresh name for one use: <correlation id><nonce>.<domain>. */
  newUrl(): string {
    this.lastUrlAt = Date.now();
    return `${this.correlationId}${randomId(NONCE_LENGTH)}.${this.domain}`;
  }

  /** Hands interactions with `url`'s name to `handler` until it settles or `evictionMs` pass. */
  expect(url: string, handler: InteractionHandler): void {
    const id = url.toLowerCase().split('.')[0]!;
    const early = this.unclaimed.get(id);
    if (early) {
      this.unclaimed.delete(id);
      for (const i of early.items) if (handler(i)) return;
    }
    this.waits.set(id, { handler, until: Date.now() + this.evictionMs });
  }

  /** Polls once (a poll already under way is joined). */
  poll(): Promise<void> {
    this.polling ??= this.pollOnce().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  /** Waits out the cooldown since the last name handed out, polls a last time and deregisters. */
  async close(o: { wait?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    if (this.lastUrlAt > 0 && o.wait !== false) {
      for (;;) {
        const left = this.lastUrlAt + this.cooldownMs - Date.now();
        if (left <= 0) break;
        await new Promise((r) => setTimeout(r, Math.min(left, this.pollMs)));
        await this.poll();
      }
    }
    await this.poll();
    this.closed = true;
    clearInterval(this.timer);
    this.waits.clear();
    this.unclaimed.clear();
    await this.call('deregister', { 'correlation-id': this.correlationId, 'secret-key': this.secret }).catch(() => {});
  }

  private async pollOnce(): Promise<void> {
    if (this.closed) return;
    let body: { data?: unknown; aes_key?: unknown };
    try {
      body = ((await this.call('poll', { id: this.correlationId, secret: this.secret })) ?? {}) as typeof body;
    } catch (err) {
      if (!this.noticed) this.o.onNotice?.(`interactsh: polling ${this.base.origin} failed: ${(err as Error).message}`);
      this.noticed = true;
      return;
    }
    const now = Date.now();
    for (const [id, w] of this.waits) if (w.until < now) this.waits.delete(id);
    for (const [id, u] of this.unclaimed) if (u.until < now) this.unclaimed.delete(id);
    if (!Array.isArray(body.data) || body.data.length === 0) return;
    if (typeof body.aes_key === 'string' && body.aes_key !== this.wrappedKey) {
      try {
        this.aesKey = privateDecrypt(
          { key: this.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
          Buffer.from(body.aes_key, 'base64'),
        );
        this.wrappedKey = body.aes_key;
      } catch {
        return;
      }
    }
    if (!this.aesKey) return;
    for (const sealed of body.data) {
      if (typeof sealed !== 'string') continue;
      const text = openSealed(this.aesKey, sealed);
      if (!text) continue;
      let i: OastInteraction;
      try {
        i = JSON.parse(text) as OastInteraction;
      } catch {
        continue;
      }
      if (typeof i?.['unique-id'] !== 'string') continue;
      this.deliver(i);
    }
  }

  private deliver(i: OastInteraction): void {
    const id = i['unique-id'].toLowerCase();
    const w = this.waits.get(id);
    if (w) {
      if (w.handler(i)) this.waits.delete(id);
      return;
    }
    const u = this.unclaimed.get(id);
    if (u) u.items.push(i);
    else if (this.unclaimed.size < 5000) this.unclaimed.set(id, { items: [i], until: Date.now() + UNCLAIMED_MS });
  }

  private async call(op: OastOperation, fields: Record<string, string>): Promise<unknown> {
    if (this.o.transport) return this.o.transport(op, fields);
    // interactsh's API: polling is a GET with the id and secret in the query, the others POST JSON.
    const path = op === 'poll' ? `/poll?${new URLSearchParams(fields)}` : `/${op}`;
    const json = op === 'poll' ? undefined : fields;
    const headers: Record<string, string> = {};
    if (this.o.token) headers.authorization = this.o.token;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const root = this.base.origin + this.base.pathname.replace(/\/?$/, '/');
    const res = await fetch(new URL(path.replace(/^\//, ''), root), {
      method: json === undefined ? 'GET' : 'POST',
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!res.ok) {
      const msg = (body as { error?: unknown })?.error;
      throw new Error(`${path.split('?')[0]}: ${res.status} ${typeof msg === 'string' ? msg : text.slice(0, 200)}`);
    }
    return body;
  }
}
