// Secrets that must not leave: download tokens and keys in the request log, a scan proxy's password for
// roles that may not manage scans, database error text in the public health answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { createQueuedApp } from '../helpers/queue.ts';
import { MARKER_TEMPLATE } from '../platform/scans/fixtures.ts';
import { redactUrl } from '../../src/platform/app.ts';

describe('secrets stay out of logs and answers', () => {
  let t: TestApp;
  let close: () => Promise<void>;
  const lines: string[] = [];
  beforeAll(async () => {
    ({ t, close } = await createQueuedApp(lines));
  });
  afterAll(async () => {
    await close?.();
  });

  it('logs requests without download tokens or key-like query values', async () => {
    const scan = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: ['http://127.0.0.1:9'],
        private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
        schedule_only: true,
      },
    });
    const id = scan.json().id;
    const link = (await t.request({ method: 'GET', url: `/v1/scans/${id}/scan_log/export?format=json` })).json()
      .url as string;
    const token = link.split('/').pop()!;
    const u = new URL(link);
    expect((await t.request({ method: 'GET', url: u.pathname, key: null })).statusCode).toBe(200);
    await t.request({ method: 'GET', url: '/v1/scans?api_key=vgl_leaked&search=x', key: null });
    const log = lines.join('');
    expect(log).toContain('/v1/export/download/[REDACTED]');
    expect(log).not.toContain(token);
    expect(log).not.toContain('vgl_leaked');
    expect(log).not.toContain(t.owner.key);
    expect(redactUrl('/v1/x?token=abc&q=1&invite_code=zz')).toBe('/v1/x?token=[REDACTED]&q=1&invite_code=[REDACTED]');
  });

  it("shows a scan proxy's password only to those who manage scans", async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: ['http://127.0.0.1:9'],
        private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
        schedule_only: true,
        socks5_proxy: 'socks5://scanner:pr0xy-Secret@127.0.0.1:1080',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    for (const role of ['viewer', 'member', 'guest']) {
      const user = await t.addUser(`${role}-proxy@example.com`, role);
      const cfg = await t.request({ method: 'GET', url: `/v1/scans/${id}/config`, key: user.key });
      expect(cfg.statusCode).toBe(200);
      expect(cfg.json().socks5_proxy).toBe('socks5://scanner:****@127.0.0.1:1080');
      expect(cfg.body).not.toContain('pr0xy-Secret');
    }
    const owner = await t.request({ method: 'GET', url: `/v1/scans/${id}/config` });
    expect(owner.json().socks5_proxy).toBe('socks5://scanner:pr0xy-Secret@127.0.0.1:1080');
  });
});
