// Chunk slot leases on a real database: at most P holders per scan, takeover of expired, older-run and
// same-chunk leases, renewal that fails once taken over, and the burst wait after a release.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, freshDb, type TestDb } from '../../helpers/db.ts';
import { acquireSlot, releaseSlot, renewSlot, type Lease } from '../../../src/platform/scans/slots.ts';

describe.each(dbKinds())('chunk slots on %s', (kind) => {
  let t: TestDb;
  let n = 0;
  const newScan = async () => {
    const id = `slot-scan-${++n}`;
    await t.db.query(`INSERT INTO scans (id, team_id, name, status) VALUES ($1, 'slot-team', $1, 'running')`, [id]);
    return id;
  };

  beforeAll(async () => {
    t = await freshDb(kind);
    await t.db.query(`INSERT INTO teams (id, name) VALUES ('slot-team', 'slots')`);
  });
  afterAll(async () => t?.drop());

  it('gives out at most P slots at once, each to one chunk, and frees them on release', async () => {
    const scan = await newScan();
    const got = await Promise.all([0, 1, 2, 3, 4].map((idx) => acquireSlot(t.db, scan, 0, idx, 3, 1)));
    const held = got.filter((l): l is Lease => !!l);
    expect(held).toHaveLength(3);
    expect(new Set(held.map((l) => l.slot))).toEqual(new Set([0, 1, 2]));
    expect(held.every((l) => l.waitMs === 0)).toBe(true);
    expect(await acquireSlot(t.db, scan, 0, 9, 3, 1)).toBeUndefined();

    expect(await renewSlot(t.db, scan, held[0]!)).toBe(true);
    await releaseSlot(t.db, scan, held[0]!);
    expect(await renewSlot(t.db, scan, held[0]!)).toBe(false);
    // The next chunk in the freed slot waits out one burst after the release.
    const next = await acquireSlot(t.db, scan, 0, 9, 3, 1);
    expect(next?.slot).toBe(held[0]!.slot);
    expect(next!.waitMs).toBeGreaterThan(500);
    expect(next!.waitMs).toBeLessThanOrEqual(1000);
    // Without a rate limit there is nothing to wait for.
    await releaseSlot(t.db, scan, next!);
    expect((await acquireSlot(t.db, scan, 0, 10, 3, 0))!.waitMs).toBe(0);
  });

  it('takes over an expired lease (dead worker), a lease of an older run and one of the same chunk', async () => {
    const scan = await newScan();
    const a = (await acquireSlot(t.db, scan, 0, 0, 1, 1))!;
    expect(await acquireSlot(t.db, scan, 0, 1, 1, 1)).toBeUndefined();
    // A retried attempt of chunk 0 replaces the earlier one, which loses its lease.
    const a2 = (await acquireSlot(t.db, scan, 0, 0, 1, 1))!;
    expect(a2).toBeDefined();
    expect(await renewSlot(t.db, scan, a)).toBe(false);
    expect(await renewSlot(t.db, scan, a2)).toBe(true);
    // A rescan (run 1) does not wait for run 0's chunk.
    const b = (await acquireSlot(t.db, scan, 1, 5, 1, 1))!;
    expect(b).toBeDefined();
    expect(await renewSlot(t.db, scan, a2)).toBe(false);
    // The holder's worker died: once the lease expires another chunk takes the slot.
    expect(await acquireSlot(t.db, scan, 1, 6, 1, 1)).toBeUndefined();
    await t.db.query(`UPDATE scan_slots SET expires_at = now() - interval '1 second' WHERE scan_id = $1`, [scan]);
    const c = await acquireSlot(t.db, scan, 1, 6, 1, 1);
    expect(c).toBeDefined();
    expect(await renewSlot(t.db, scan, b)).toBe(false);
  });
});
