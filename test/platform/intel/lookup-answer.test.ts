// The whole-record answer of GET /v2/vulnerability/{id} is kept as bytes per record: it must always be the
// text lookupJson gives at the moment of the request, age_in_days included (it changes once a day, at the
// record's own publication time of day, not at midnight), whatever the clock does.
import { describe, expect, it } from 'vitest';
import { lookupAnswer, lookupJson } from '../../../src/platform/intel/service.ts';
import type { StoredVuln } from '../../../src/platform/intel/store.ts';

const DAY = 86_400_000;
const published = Date.parse('2024-03-05T17:23:11.250Z');
const row = (over: Partial<StoredVuln> = {}): StoredVuln => ({
  doc: '{"cve_id":"CVE-2024-0001","name":"caf\u00e9 \u2603 overflow","cvss_score":9.8}',
  cve_created_at: new Date(published),
  created_at: new Date('2024-03-06T00:00:00.000Z'),
  updated_at: new Date('2024-04-01T12:00:00.000Z'),
  ...over,
});
const expected = (r: StoredVuln, now: number) => Buffer.from(`{"data":${lookupJson(r, now)}}`, 'utf8');
const age = (bytes: Buffer) =>
  (JSON.parse(bytes.toString('utf8')) as { data: { age_in_days?: number } }).data.age_in_days;

describe('lookupAnswer', () => {
  it('is the UTF-8 of lookupJson, and the same bytes again for the same record and day', () => {
    const r = row();
    const now = published + 10 * DAY + 5;
    const first = lookupAnswer(r, now);
    expect(first.equals(expected(r, now))).toBe(true);
    expect(JSON.parse(first.toString('utf8')).data.name).toBe('caf\u00e9 \u2603 overflow');
    expect(lookupAnswer(r, now + 1000)).toBe(first); // kept, not rebuilt
    // in memory of its own, not a slice of Node's shared Buffer pool (keeping it would keep the whole slab)
    expect(first.buffer.byteLength).toBe(first.length);
  });

  it('changes age_in_days exactly when a whole day since publication has passed, and back if the clock does', () => {
    const r = row();
    const times = [
      published + 3 * DAY - 1,
      published + 3 * DAY,
      published + 4 * DAY - 1,
      published + 4 * DAY,
      published + 3 * DAY - 1, // the clock set back
      published + 400 * DAY,
    ];
    const ages = times.map((now) => {
      const bytes = lookupAnswer(r, now);
      expect(bytes.equals(expected(r, now))).toBe(true);
      return age(bytes);
    });
    expect(ages).toEqual([2, 3, 3, 4, 2, 400]);
  });

  it('answers 0 days before and within the first day of publication, and no age without a publication date', () => {
    const r = row();
    expect(
      [published - 5 * DAY, published - 1, published, published + DAY - 1].map((n) => age(lookupAnswer(r, n))),
    ).toEqual([0, 0, 0, 0]);
    expect(age(lookupAnswer(r, published + DAY))).toBe(1);
    const undated = row({ cve_created_at: null });
    for (const now of [0, published, published + 1000 * DAY]) {
      const bytes = lookupAnswer(undated, now);
      expect(bytes.equals(expected(undated, now))).toBe(true);
      expect('age_in_days' in JSON.parse(bytes.toString('utf8')).data).toBe(false);
    }
  });

  it('keeps answers per record: another record (a re-read after a change) gets its own', () => {
    const before = row();
    const now = published + 2 * DAY;
    lookupAnswer(before, now);
    const after = row({
      doc: '{"cve_id":"CVE-2024-0001","cvss_score":5}',
      updated_at: new Date('2024-05-01T00:00:00Z'),
    });
    const bytes = lookupAnswer(after, now);
    expect(bytes.equals(expected(after, now))).toBe(true);
    expect(JSON.parse(bytes.toString('utf8')).data.cvss_score).toBe(5);
  });

  it('is the UTF-8 of lookupJson for records of any shape: empty, multi-byte text at the end, a big one', () => {
    const now = published + 7 * DAY;
    const docs = [
      '{}',
      '{"a":1}',
      '{"name":"\u00e9\u2603\ud83d\ude00"}',
      '{"name":"x\u00e9"}',
      `{"template":"${'\u2603 id: x\\n'.repeat(50_000)}"}`,
    ];
    for (const doc of docs) {
      for (const over of [{}, { cve_created_at: null }]) {
        const r = row({ doc, ...over });
        const bytes = lookupAnswer(r, now);
        expect(bytes.equals(expected(r, now))).toBe(true);
        expect(bytes.buffer.byteLength).toBe(bytes.length);
      }
    }
  });
});
