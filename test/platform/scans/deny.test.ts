// Target limits at scan creation: cloud metadata and the platform's own port are denied by default,
// huge ranges are refused or cut arithmetically, and never more targets are stored than are kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { MARKER_TEMPLATE } from './fixtures.ts';

const tpl = [{ name: 'marker.yaml', contents: MARKER_TEMPLATE }];

describe.each(dbKinds())('scan target limits on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { port: 8085, maxScanTargets: 3 });
  });
  afterAll(async () => t?.close());

  const create = (payload: Record<string, unknown>) =>
    t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { private_templates: tpl, schedule_only: true, ...payload },
    });

  it('denies cloud metadata addresses and the API port, naming the target', async () => {
    for (const [target, why] of [
      ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
      ['metadata.google.internal', 'cloud metadata'],
      ['http://[fd00:ec2::254]/', 'cloud metadata'],
      ['http://127.0.0.1:8085', 'own API port'],
      ['localhost:8085', 'own API port'],
    ] as const) {
      const res = await create({ targets: ['https://example.com', target] });
      expect(res.statusCode, target).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, message: expect.stringContaining(why) });
      expect(res.json().param).toBe('targets[1]');
    }
    // Other local ports stay scannable (tests and labs scan 127.0.0.1).
    expect((await create({ targets: ['http://127.0.0.1:8086'] })).statusCode).toBe(200);
  });

  it('cuts metadata addresses out of ranges and leaves the rest', async () => {
    const res = await create({ targets: ['169.254.169.252/30'] });
    expect(res.statusCode, res.body).toBe(200);
    const cfg = (await t.request({ method: 'GET', url: `/v1/scans/${res.json().id}/config` })).json();
    // .253 (AWS DNS) and .254 (instance metadata) are both on the built-in list.
    expect(cfg.targets).toEqual(['169.254.169.252', '169.254.169.255']);
  });

  it('an operator can lift the built-in denials', async () => {
    const open = await createTestApp(kind, { port: 8085, allowDeniedTargets: true });
    try {
      const res = await open.request({
        method: 'POST',
        url: '/v1/scans',
        payload: { targets: ['http://169.254.169.254/'], private_templates: tpl, schedule_only: true },
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('answers at once for a range excluded whole, and refuses ranges over the limit', async () => {
    const started = Date.now();
    const gone = await create({ targets: ['10.0.0.0/8'], exclusions: ['10.0.0.0/8'] });
    expect(gone.statusCode).toBe(400);
    expect(gone.json().message).toContain('excluded');
    const v6 = await create({ targets: ['::/0'] });
    expect(v6.statusCode).toBe(400);
    expect(v6.json().message).toContain('VIGIL_MAX_RANGE_ADDRESSES');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('stores only the inputs that made the kept targets, not every target sent', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `host-${i}.example.com`);
    const res = await create({ targets: many });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()['truncated-scan-targets']).toBe(20_000 - 3);
    const row = await t.ctx.db.query<{ n: number }>(
      "SELECT jsonb_array_length(request->'targets') AS n FROM scans WHERE id = $1",
      [res.json().id],
    );
    expect(Number(row.rows[0]!.n)).toBe(3);
    const tooMany = await create({ targets: Array.from({ length: 100_001 }, (_, i) => `h${i}.example.com`) });
    expect(tooMany.statusCode).toBe(400);
  });
});
