// The OAST server's sessions: eviction of clients nobody polls (time passed in), the cap on interactions
// kept per client (oldest dropped) and on clients.
import { describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { Sessions } from '../../src/oast/sessions.ts';
import type { Interaction } from '../../src/oast/protocol.ts';

const key = () =>
  Buffer.from(
    crypto.generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }),
  ).toString('base64');
const id = (c: string) => c.repeat(20);
const interaction = (cid: string, n: number): Interaction => ({
  protocol: 'http',
  'unique-id': `${cid}${'n'.repeat(13)}`,
  'full-id': `${cid}${'n'.repeat(13)}`,
  'raw-request': `request ${n}`,
  'remote-address': '127.0.0.1',
  timestamp: new Date(0).toISOString(),
});

describe('OAST sessions', () => {
  it('forgets a client nobody polled within the eviction time, and keeps one that polls', () => {
    let now = 1_000_000;
    const s = new Sessions({ evictAfterMs: 60_000, maxPerClient: 10, maxClients: 10 }, () => now);
    s.register(id('a'), 'secret-a-123', key());
    s.register(id('b'), 'secret-b-123', key());
    now += 50_000;
    s.poll(id('b'), 'secret-b-123');
    now += 20_000; // a: 70 s since registration; b: 20 s since its poll
    expect(s.evict()).toBe(1);
    expect(s.has(id('a'))).toBe(false);
    expect(s.has(id('b'))).toBe(true);
    expect(s.add(interaction(id('a'), 1))).toBe(false);
    expect(() => s.poll(id('a'), 'secret-a-123')).toThrow(/could not get correlation-id/);
  });

  it('keeps at most maxPerClient interactions per client, dropping the oldest', () => {
    const s = new Sessions({ evictAfterMs: 60_000, maxPerClient: 3, maxClients: 10 });
    s.register(id('c'), 'secret-c-123', key());
    for (let n = 0; n < 5; n++) expect(s.add(interaction(id('c'), n))).toBe(true);
    expect(s.poll(id('c'), 'secret-c-123').data).toHaveLength(3);
    expect(s.poll(id('c'), 'secret-c-123').data).toHaveLength(0);
  });

  it('refuses clients beyond maxClients', () => {
    const s = new Sessions({ evictAfterMs: 60_000, maxPerClient: 3, maxClients: 2 });
    s.register(id('d'), 'secret-d-123', key());
    s.register(id('e'), 'secret-e-123', key());
    expect(() => s.register(id('f'), 'secret-f-123', key())).toThrow(/too many registered clients/);
  });
});
