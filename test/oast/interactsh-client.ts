// A minimal interactsh client for tests, written from the protocol's description and independent of the
// engine's (src/engine/oast/): RSA-2048 key, POST /register {public-key, secret-key, correlation-id},
// GET /poll?id&secret -> {data: [base64(iv || AES-256-CTR(json))], aes_key: base64(RSA-OAEP-SHA256(key))},
// POST /deregister. Names are <20-char correlation id><13-char nonce>.<domain>.
import crypto from 'node:crypto';

export interface PolledInteraction {
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

const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const pick = (n: number) => Array.from(crypto.randomBytes(n), (b) => LOWER_ALNUM[b % 36]).join('');

export class TestInteractshClient {
  readonly correlationId = pick(20);
  readonly secret: string = crypto.randomUUID();
  private readonly keys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });

  constructor(
    readonly api: string,
    readonly domain: string,
    readonly token?: string,
  ) {}

  name(): string {
    return `${this.correlationId}${pick(13)}.${this.domain}`;
  }

  publicKeyField(): string {
    const pem = this.keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    return Buffer.from(pem.replaceAll('PUBLIC KEY', 'RSA PUBLIC KEY')).toString('base64');
  }

  private headers(json: boolean): Record<string, string> {
    const h: Record<string, string> = {};
    if (json) h['content-type'] = 'application/json';
    if (this.token) h.authorization = this.token;
    return h;
  }

  async register(): Promise<Response> {
    return fetch(`${this.api}/register`, {
      method: 'POST',
      headers: this.headers(true),
      body: JSON.stringify({
        'public-key': this.publicKeyField(),
        'secret-key': this.secret,
        'correlation-id': this.correlationId,
      }),
    });
  }

  async pollRaw(id: string = this.correlationId, secret: string = this.secret): Promise<Response> {
    return fetch(`${this.api}/poll?id=${encodeURIComponent(id)}&secret=${encodeURIComponent(secret)}`, {
      headers: this.headers(false),
    });
  }

  async poll(): Promise<PolledInteraction[]> {
    const res = await this.pollRaw();
    if (res.status !== 200) throw new Error(`poll: ${res.status} ${await res.text()}`);
    return this.decrypt((await res.json()) as { data: string[] | null; aes_key: string });
  }

  /** The interactions of a poll's answer, opened with this client's private key. */
  decrypt(body: { data: string[] | null; aes_key: string }): PolledInteraction[] {
    if (!body.data?.length) return [];
    const key = crypto.privateDecrypt(
      { key: this.keys.privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(body.aes_key, 'base64'),
    );
    return body.data.map((item) => {
      const raw = Buffer.from(item, 'base64');
      const decipher = crypto.createDecipheriv('aes-256-ctr', key, raw.subarray(0, 16));
      const plain = Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as PolledInteraction;
    });
  }

  async deregister(): Promise<Response> {
    return fetch(`${this.api}/deregister`, {
      method: 'POST',
      headers: this.headers(true),
      body: JSON.stringify({ 'correlation-id': this.correlationId, 'secret-key': this.secret }),
    });
  }
}
