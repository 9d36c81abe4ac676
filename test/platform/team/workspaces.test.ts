// Members get a key while the server runs (one-time invites), and a user can hold several workspaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';

describe.each(dbKinds())('invites and workspaces on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('an added member redeems a one-time invite for an API key', async () => {
    const add = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      payload: { email: 'newbie@example.com', role: 'member' },
    });
    expect(add.statusCode, add.body).toBe(200);
    const { invite_token: token, invite_expires_at: expires } = add.json();
    expect(token).toMatch(/^vgi_/);
    expect(new Date(expires).getTime()).toBeGreaterThan(Date.now() + 6 * 86400_000);
    // Only the hash is stored.
    const stored = await t.ctx.db.query('SELECT * FROM team_invites');
    expect(JSON.stringify(stored.rows)).not.toContain(token);

    const accept = await t.request({ method: 'POST', url: '/v1/user/invite/accept', key: null, payload: { token } });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(accept.json()).toMatchObject({
      email: 'newbie@example.com',
      team_id: t.owner.teamId,
      api_key: expect.stringMatching(/^vgl_/),
    });
    const me = await t.request({ method: 'GET', url: '/v1/user', key: accept.json().api_key });
    expect(me.json()).toMatchObject({ email: 'newbie@example.com', role: 'MEMBER' });
    const members = (await t.request({ method: 'GET', url: '/v1/user/team/member' })).json().members;
    expect(members.find((m: { email: string }) => m.email === 'newbie@example.com').status).toBe('ACCEPTED');

    // Once only; unknown tokens are refused alike.
    for (const tk of [token, 'vgi_' + 'x'.repeat(32)]) {
      const again = await t.request({
        method: 'POST',
        url: '/v1/user/invite/accept',
        key: null,
        payload: { token: tk },
      });
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toContain('unknown, used or expired');
    }
    // Members may not invite.
    const refused = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      key: accept.json().api_key,
      payload: { email: 'x@example.com' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('a user creates, renames and deletes a workspace of their own; an invite never revokes a working key', async () => {
    const user = await t.addUser('builder@example.com', 'viewer');
    // Creating teams is the instance owner's to allow (test/security/team-creation.test.ts).
    expect(
      (await t.request({ method: 'POST', url: '/v1/instance/team-creators', payload: { email: user.email } }))
        .statusCode,
    ).toBe(200);
    const created = await t.request({
      method: 'POST',
      url: '/v1/user/team',
      key: user.key,
      payload: { name: 'Side project' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const teamId = created.json().team_id;
    const asOwner = { 'x-team-id': teamId };
    expect((await t.request({ method: 'GET', url: '/v1/user', key: user.key, headers: asOwner })).json()).toMatchObject(
      { role: 'OWNER', team_id: teamId },
    );
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: '/v1/user/team',
          key: user.key,
          headers: asOwner,
          payload: { name: 'Renamed' },
        })
      ).statusCode,
    ).toBe(200);
    // In the first team they are a Viewer: no renaming there, no deleting it.
    expect(
      (await t.request({ method: 'PATCH', url: '/v1/user/team', key: user.key, payload: { name: 'Nope' } })).statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: 'DELETE', url: '/v1/user/team', key: user.key, payload: { team_id: t.owner.teamId } }))
        .statusCode,
    ).toBe(403);

    // The first team's owner is invited into the new workspace: they accept with their own key and keep it.
    const inv = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      key: user.key,
      headers: asOwner,
      payload: { email: 'owner@localhost', role: 'admin' },
    });
    expect(inv.statusCode, inv.body).toBe(200);
    expect(inv.json().account).toBe('existing');
    const acc = await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      payload: { token: inv.json().invite_token },
    });
    expect(acc.statusCode, acc.body).toBe(200);
    expect(acc.json().api_key).toBeUndefined();
    expect((await t.request({ method: 'GET', url: '/v1/user', headers: asOwner })).json()).toMatchObject({
      role: 'ADMIN',
    });

    // A private template in the workspace; deleting needs the other member gone first.
    const tpl = await t.request({
      method: 'POST',
      url: '/v1/template',
      key: user.key,
      headers: asOwner,
      payload: {
        template:
          'id: side-tpl\ninfo:\n  name: side\n  author: x\n  severity: low\nhttp:\n  - path: ["{{BaseURL}}"]\n    matchers: [{type: status, status: [200]}]\n',
      },
    });
    expect(tpl.statusCode, tpl.body).toBe(200);
    const busy = await t.request({
      method: 'DELETE',
      url: '/v1/user/team',
      key: user.key,
      headers: asOwner,
      payload: { team_id: teamId },
    });
    expect(busy.statusCode).toBe(409);
    expect(
      (
        await t.request({
          method: 'DELETE',
          url: '/v1/user/team/member',
          key: user.key,
          headers: asOwner,
          payload: { email: 'owner@localhost' },
        })
      ).statusCode,
    ).toBe(200);
    const gone = await t.request({
      method: 'DELETE',
      url: '/v1/user/team',
      key: user.key,
      headers: asOwner,
      payload: { team_id: teamId },
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await t.ctx.db.query('SELECT 1 FROM templates WHERE team_id = $1', [teamId])).rowCount).toBe(0);
    expect((await t.ctx.db.query('SELECT 1 FROM teams WHERE id = $1', [teamId])).rowCount).toBe(0);
    // Their key still works in the team they have left.
    expect((await t.request({ method: 'GET', url: '/v1/user', key: user.key })).json()).toMatchObject({
      team_id: t.owner.teamId,
    });
  });
});
