// An asset policy's alert reaches a real HTTP receiver through an alerting config, once: the alert job
// writes an asset event, the monitor turns it into deliveries for the configs asking for
// `asset_policy_match` and sends them; the same job run again (a retry) queues nothing twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { getJobHandler } from '../../../src/platform/worker/registry.ts';
import { processDeliveries } from '../../../src/platform/monitor/deliveries.ts';
import { processEvents, queueNewAssetsAlert } from '../../../src/platform/monitor/events.ts';
import { ALERT_JOB } from '../../../src/platform/assets/jobs-names.ts';
import '../../../src/platform/assets/jobs.ts';

describe('asset policy alerts', () => {
  let t: TestApp;
  let receiver: TestServer;
  beforeAll(async () => {
    t = await createTestApp('pglite', { egressAllow: ['127.0.0.0/8'] });
    receiver = await startHttpServer((_req, res) => res.end('ok'));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('are delivered once to the configs that ask for them', async () => {
    const config = async (name: string, events: string) => {
      const res = await t.request({
        method: 'POST',
        url: '/v1/scans/config',
        payload: {
          name,
          config_type: 'alerting',
          config: `provider: webhook\nevents: [${events}]\nwebhook:\n  url: ${receiver.url}/${name}\n`,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as string;
    };
    const wants = await config('policy-hook', 'asset_policy_match');
    const other = await config('scan-hook', 'scan_finished');
    const job = {
      id: 'job-1',
      name: ALERT_JOB,
      retryCount: 0,
      retryLimit: 3,
      data: {
        team_id: t.owner.teamId,
        policy_id: 'pol-1',
        alerting_config_ids: [wants, other],
        event: { id: '42', subject_name: 'down for maintenance', message_payload: { host: 'app.example.test' } },
      },
    };
    const handler = getJobHandler(ALERT_JOB)!.handler;
    const ctx = { ...t.ctx, queue: undefined as never, signal: new AbortController().signal };
    await handler(job, ctx);
    await handler({ ...job, retryCount: 1 }, ctx); // a retried job
    while ((await processEvents(t.ctx)) > 0) {
      /* the monitor turns the asset events into deliveries */
    }
    while ((await processDeliveries(t.ctx)) > 0) {
      /* until nothing is due */
    }
    const hits = receiver.requests.filter((r) => r.url === '/policy-hook');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.body).toContain('asset policy \\"down for maintenance\\" matched app.example.test');
    expect(receiver.requests.filter((r) => r.url === '/scan-hook')).toHaveLength(0);
    const listed = (await t.request({ method: 'GET', url: `/v1/scans/config/${wants}/deliveries` })).json();
    expect(listed.map((d: { event: string; status: string }) => [d.event, d.status])).toEqual([
      ['asset_policy_match', 'delivered'],
    ]);
  });

  it('new assets of a later run reach the configs that ask for new_asset, once per run', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/config',
      payload: {
        name: 'new-assets',
        config_type: 'alerting',
        global: true,
        config: `provider: webhook\nevents: [new_asset]\nwebhook:\n  url: ${receiver.url}/new-assets\n`,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const alert = {
      teamId: t.owner.teamId,
      configIds: [],
      enumerationId: 'enum-1',
      enumerationName: 'shop',
      run: 2,
      assets: [{ host: 'new.example.test', port: 443 }],
    };
    expect(await queueNewAssetsAlert(t.ctx, alert)).toBe(1);
    await queueNewAssetsAlert(t.ctx, alert); // the same run again: nothing new
    while ((await processDeliveries(t.ctx)) > 0) {
      /* until nothing is due */
    }
    const hits = receiver.requests.filter((r) => r.url === '/new-assets');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.body).toContain('1 new asset(s) in enumeration \\"shop\\": new.example.test:443');
  });
});
