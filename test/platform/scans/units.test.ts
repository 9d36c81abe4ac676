import { describe, expect, it } from 'vitest';
import { vulnHash, toFindingRow, portOf } from '../../../src/platform/scans/findings.ts';
import { formatLogs, parseLogQuery, type LogRecord } from '../../../src/platform/scans/logs.ts';
import { chunkSize, splitTargets } from '../../../src/platform/scans/dispatch.ts';
import { chunkConcurrency, chunkRate, slotCount } from '../../../src/platform/scans/slots.ts';
import { elapsed } from '../../../src/platform/scans/service.ts';

const ev = (over: Record<string, unknown> = {}) => ({
  'template-id': 't1',
  host: 'http://a.test',
  'matched-at': 'http://a.test/x',
  'matcher-name': 'm',
  info: { severity: 'HIGH', tags: 'a, b' },
  ...over,
});

describe('scan helpers', () => {
  it('hashes a finding by template, matcher, host and location only', () => {
    const h = vulnHash(ev());
    expect(vulnHash(ev({ timestamp: 'later', response: 'other body' }))).toBe(h);
    for (const change of [
      { 'template-id': 't2' },
      { 'matcher-name': 'n' },
      { host: 'http://b.test' },
      { 'matched-at': 'http://a.test/y' },
    ]) {
      expect(vulnHash(ev(change))).not.toBe(h);
    }
  });

  it('normalises severity, tags and port', () => {
    expect(toFindingRow(ev())).toMatchObject({ severity: 'high', tags: ['a', 'b'], port: 80 });
    expect(portOf({ 'template-id': 'x', 'matched-at': 'https://a.test/x' })).toBe(443);
    expect(portOf({ 'template-id': 'x', host: 'a.test:8443' })).toBe(8443);
    expect(toFindingRow(ev({ info: { severity: 'weird' } })).severity).toBe('unknown');
  });

  it('formats logs as csv with formula-safe, quoted cells and raw lines', async () => {
    const rec: LogRecord = {
      target: '=cmd()',
      template_id: 't',
      matched: false,
      timestamp: '2024-01-01T00:00:00.000Z',
      error: 'a,"b"',
      severity: 'low',
      event: '',
      vuln_hash: '',
    };
    const batches = async function* () {
      yield [rec];
    };
    let csv = '';
    for await (const s of formatLogs(batches(), 'csv')) csv += s;
    expect(csv.split('\n')[1]).toBe(`2024-01-01T00:00:00.000Z,'=cmd(),t,false,low,"a,""b""",,`);
    let raw = '';
    for await (const s of formatLogs(batches(), 'raw')) raw += s;
    expect(raw).toBe('[2024-01-01T00:00:00.000Z] [t] [low] =cmd() error: a,"b"\n');
    let json = '';
    for await (const s of formatLogs((async function* () {})(), 'json')) json += s;
    expect(JSON.parse(json)).toEqual([]);
  });

  it('reads the export query and rejects bad values', () => {
    expect(parseLogQuery({ matched: 'true', severity: 'error' }).filter).toMatchObject({
      matched: true,
      level: 'error',
    });
    expect(() => parseLogQuery({ matched: 'maybe' })).toThrow(/matched/);
    expect(() => parseLogQuery({ time: 'yesterday-ish' })).toThrow(/time/);
    expect(parseLogQuery({}).format).toBe('json');
  });

  it('splits runs into about eight chunks and shares a rate limit between chunk slots', () => {
    expect(chunkSize(1000, {})).toBe(125);
    expect(chunkSize(3, {})).toBe(1);
    expect(chunkSize(100_000, {})).toBe(250);
    expect(chunkSize(1000, { VIGIL_SCAN_CHUNK_TARGETS: '7' })).toBe(7);
    expect(splitTargets(['a', 'b', 'c'], 2)).toEqual([['a', 'b'], ['c']]);
    // Slots: the scan's parallelism, at most its chunks and at most its rate (>= 1 request/s per chunk).
    expect(slotCount({ rateLimit: 150, parallelism: 4 }, 8)).toBe(4);
    expect(slotCount({ rateLimit: 150, parallelism: 4 }, 2)).toBe(2);
    expect(slotCount({ rateLimit: 3, parallelism: 4 }, 8)).toBe(3);
    expect(slotCount({ rateLimit: 0, parallelism: 6 }, 8)).toBe(6);
    expect(slotCount({ rateLimit: 10, parallelism: 0 }, 8)).toBe(1);
    expect(chunkRate(150, 4)).toBe(37.5);
    expect(chunkRate(150, 1)).toBe(150);
    expect(chunkRate(0, 8)).toBe(0);
    // Concurrency is shared the same way (rounded up, at least one template per chunk).
    expect(chunkConcurrency(25, 4)).toBe(7);
    expect(chunkConcurrency(25, 1)).toBe(25);
    expect(chunkConcurrency(2, 4)).toBe(1);
    expect(chunkConcurrency(undefined, 4)).toBeUndefined();
  });

  it('prints elapsed times', () => {
    const t0 = new Date('2024-01-01T00:00:00Z');
    expect(elapsed(t0, new Date('2024-01-01T01:02:03Z'))).toBe('1h2m3s');
    expect(elapsed(t0, new Date('2024-01-01T00:00:09Z'))).toBe('9s');
    expect(elapsed(null, null)).toBe('0s');
  });
});
