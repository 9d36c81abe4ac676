// Attacks on template share links: reading another team's template without its link, guessing or reusing
// a link after it was revoked or expired, changing a template through its link, and the link's token
// leaking through list answers, the database or the request log.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait.ts';
import { createTeamWithOwner, issueKey } from '../../src/platform/auth/service.ts';
import { hashApiKey } from '../../src/platform/auth/keys.ts';
import { templateText } from '../platform/templates/fixtures.ts';

describe('template share links under attack', () => {
  let t: TestApp;
  let otherKey: string;
  let templateId: string;
  const lines: string[] = [];

  const share = async (ttl = '1d') => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/template/share',
      payload: { template_id: templateId, share_type: 'unlisted', ttl },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as { share_token: string; share_path: string };
  };

  beforeAll(async () => {
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    );
    t = await createTestApp('pglite', {}, { log });
    const other = await createTeamWithOwner(t.ctx.db, 'attacker@localhost', 'Attackers');
    otherKey = await issueKey(t.ctx.db, other.userId);
    const created = await t.request({
      method: 'POST',
      url: '/v1/template',
      payload: { template: templateText({ id: 'secret-panel', name: 'Secret Panel' }) },
    });
    templateId = created.json().template_id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('another team cannot read a private template without its link, shared or not', async () => {
    await share();
    expect((await t.request({ method: 'GET', url: `/v1/template/${templateId}`, key: otherKey })).statusCode).toBe(404);
    // The template's id is not its link.
    expect(
      (await t.request({ method: 'GET', url: `/v1/template/share/${templateId}`, key: otherKey })).statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/template/share/${templateId}`, key: null })).statusCode).toBe(
      404,
    );
    const theirs = await t.request({ method: 'GET', url: '/v1/template/share', key: otherKey });
    expect(theirs.json()).toMatchObject({ total: 0, results: [] });
    const search = await t.request({ method: 'GET', url: '/v2/template/search?scope=private&q=secret', key: otherKey });
    expect(search.json().total).toBe(0);
  });

  it('guessed, altered and malformed tokens fail', async () => {
    const { share_token: token } = await share();
    const guesses = [
      `vts_${'A'.repeat(43)}`,
      token.slice(0, -1),
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      `${token}x`,
      token.toUpperCase(),
      token.slice(4),
      hashApiKey(token),
      `vts_${'x'.repeat(5000)}`,
      'vts_',
      '%00',
      "vts_' OR '1'='1",
    ];
    for (const g of guesses) {
      const res = await t.request({ method: 'GET', url: `/v1/template/share/${encodeURIComponent(g)}`, key: null });
      expect([400, 404, 414], `${g.slice(0, 60)} -> ${res.statusCode}`).toContain(res.statusCode);
      expect(res.body).not.toContain('Secret Panel');
    }
    expect((await t.request({ method: 'GET', url: `/v1/template/share/${token}`, key: null })).statusCode).toBe(200);
  });

  it('a revoked link gives 404 and an expired one 410', async () => {
    const revoked = await share();
    expect((await t.request({ method: 'DELETE', url: `/v1/template/share/${templateId}` })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: revoked.share_path, key: null })).statusCode).toBe(404);

    const short = await share('1s');
    const gone = await waitFor(async () => {
      const res = await t.request({ method: 'GET', url: short.share_path, key: null });
      return res.statusCode === 410 ? res : undefined;
    }, 10_000);
    expect(gone.json()).toMatchObject({ code: 'expired', message: 'this share link has expired' });
    expect(gone.body).not.toContain('Secret Panel');
    // Extending it brings the same link back; only the owner team can.
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: `/v1/template/share/${templateId}`,
          key: otherKey,
          payload: { ttl: '1d' },
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'GET', url: short.share_path, key: null })).statusCode).toBe(410);
    expect(
      (await t.request({ method: 'PATCH', url: `/v1/template/share/${templateId}`, payload: { ttl: '1d' } }))
        .statusCode,
    ).toBe(200);
    expect((await t.request({ method: 'GET', url: short.share_path, key: null })).statusCode).toBe(200);
  });

  it('the link reads only: it changes nothing, with or without a key', async () => {
    const { share_token: token, share_path: link } = await share();
    for (const key of [otherKey, null]) {
      for (const method of ['PATCH', 'DELETE'] as const) {
        const res = await t.request({
          method,
          url: link,
          key,
          payload: method === 'PATCH' ? { ttl: '365d' } : undefined,
        });
        expect(res.statusCode, `${method} as ${key ? 'other team' : 'no key'}`).toBe(key ? 404 : 401);
      }
      expect(
        (
          await t.request({
            method: 'PATCH',
            url: '/v1/template',
            key,
            payload: { template_id: token, template: templateText({ id: 'x' }) },
          })
        ).statusCode,
      ).toBe(key ? 404 : 401);
    }
    const read = await t.request({ method: 'GET', url: link, key: null });
    expect(read.json().result).toMatchObject({ name: 'Secret Panel', ttl: '1d' });
  });

  it('the token appears in no list answer, no stored row and no log line', async () => {
    const { share_token: token, share_path: link } = await share();
    expect((await t.request({ method: 'GET', url: link, key: null })).statusCode).toBe(200);
    await t.request({ method: 'GET', url: `${link}?fields=name` });
    const list = await t.request({ method: 'GET', url: '/v1/template/share' });
    expect(list.json().total).toBe(1);
    expect(list.body).not.toContain(token);
    expect(list.body).not.toContain(token.slice(4));
    expect(list.body).not.toContain(hashApiKey(token));
    const own = await t.request({ method: 'GET', url: `/v1/template/${templateId}` });
    expect(own.body).not.toContain(token.slice(4));

    const rows = await t.ctx.db.query<Record<string, unknown>>('SELECT * FROM template_shares');
    expect(rows.rows).toHaveLength(1);
    expect(JSON.stringify(rows.rows)).not.toContain(token.slice(4));
    expect(rows.rows[0]!.token_hash).toBe(hashApiKey(token));

    const log = lines.join('');
    expect(log).toContain('/v1/template/share/[REDACTED]');
    expect(log).not.toContain(token.slice(4));
  });
});
