// Registered clients and their interactions, kept in memory and only encrypted: an interaction is sealed
// with the client's AES key as it arrives, so what the server holds is readable by that client alone.
// Eviction: a client nobody polled for `evictAfterMs` is forgotten with its interactions (interactsh's
// sliding expiry); a client holds at most `maxPerClient` interactions (the oldest go first) and the server
// at most `maxClients` clients.
import { timingSafeEqual } from 'node:crypto';
import { CORRELATION_ID_LENGTH, newSessionKey, parseClientKey, sealInteraction, type Interaction } from './protocol.ts';

export interface SessionLimits {
  evictAfterMs: number;
  maxPerClient: number;
  maxClients: number;
}

export const DEFAULT_LIMITS: SessionLimits = {
  evictAfterMs: 24 * 3600_000,
  maxPerClient: 1000,
  maxClients: 10_000,
};

interface Session {
  secret: string;
  key: Buffer;
  wrappedKey: string;
  sealed: string[];
  seenAt: number;
}

/** A request the client got wrong: the listener answers 400 with this message. */
export class OastClientError extends Error {}

const ID_SHAPE = new RegExp(`^[a-z0-9]{${CORRELATION_ID_LENGTH}}$`);

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class Sessions {
  private readonly byId = new Map<string, Session>();
  constructor(
    private readonly limits: SessionLimits = DEFAULT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.byId.size;
  }

  has(correlationId: string): boolean {
    const s = this.byId.get(correlationId);
    if (!s) return false;
    if (this.now() - s.seenAt > this.limits.evictAfterMs) {
      this.byId.delete(correlationId);
      return false;
    }
    return true;
  }

  register(correlationId: unknown, secret: unknown, publicKey: unknown): void {
    if (typeof correlationId !== 'string' || !ID_SHAPE.test(correlationId))
      throw new OastClientError(`correlation-id must be ${CORRELATION_ID_LENGTH} lowercase letters and digits`);
    if (typeof secret !== 'string' || secret.length < 8 || secret.length > 200)
      throw new OastClientError('secret-key must be a string of 8 to 200 characters');
    if (typeof publicKey !== 'string' || publicKey.length > 20_000)
      throw new OastClientError('public-key must be a base64-encoded PEM RSA public key');
    this.evict();
    if (this.has(correlationId)) throw new OastClientError('correlation-id provided already exists');
    if (this.byId.size >= this.limits.maxClients) throw new OastClientError('too many registered clients; try later');
    let key;
    try {
      key = newSessionKey(parseClientKey(publicKey));
    } catch (err) {
      throw new OastClientError(`could not read public-key: ${(err as Error).message}`);
    }
    this.byId.set(correlationId, { secret, key: key.key, wrappedKey: key.wrapped, sealed: [], seenAt: this.now() });
  }

  /** The sealed interactions since the last poll (handed over once) and the wrapped key. */
  poll(correlationId: string, secret: string): { data: string[]; aesKey: string } {
    const s = this.owned(correlationId, secret);
    s.seenAt = this.now();
    const data = s.sealed;
    s.sealed = [];
    return { data, aesKey: s.wrappedKey };
  }

  deregister(correlationId: string, secret: string): void {
    this.owned(correlationId, secret);
    this.byId.delete(correlationId);
  }

  /** Seals and keeps an interaction for the client whose correlation id starts its unique id. */
  add(interaction: Interaction): boolean {
    const id = interaction['unique-id'].slice(0, CORRELATION_ID_LENGTH);
    const s = this.has(id) ? this.byId.get(id) : undefined;
    if (!s) return false;
    s.sealed.push(sealInteraction(s.key, JSON.stringify(interaction)));
    if (s.sealed.length > this.limits.maxPerClient) s.sealed.splice(0, s.sealed.length - this.limits.maxPerClient);
    return true;
  }

  /** Forgets clients not polled within the eviction time. */
  evict(): number {
    const cutoff = this.now() - this.limits.evictAfterMs;
    let n = 0;
    for (const [id, s] of this.byId) {
      if (s.seenAt < cutoff) {
        this.byId.delete(id);
        n++;
      }
    }
    return n;
  }

  private owned(correlationId: string, secret: string): Session {
    const s = this.has(correlationId) ? this.byId.get(correlationId) : undefined;
    if (!s) throw new OastClientError('could not get correlation-id from cache');
    if (!sameSecret(s.secret, secret)) throw new OastClientError('invalid secret key passed for user');
    return s;
  }
}
