// Default team members (instance owner only; invited into every new team) and creating / revoking one's
// own API key; answers held to the hosted platform's schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';
import { createSession } from '../../../src/platform/auth/sessions.ts';

const pdcp = (method: string, url: string, status: number, body: unknown) => {
  if (hasPdcpOpenApi()) assertPdcpAnswer(method, url, status, body);
};

describe('default team members and API keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { teamCreation: 'everyone' });
  });
  afterAll(async () => t?.close());

  const call = async (method: string, url: string, payload?: unknown, key?: string) => {
    const res = await t.request({ method: method as 'GET', url, payload: payload as object, key });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };

  it('the instance owner sets them; every new team invites those with an account', async () => {
    const admin = await t.addUser('admin@localhost', 'admin');
    const analyst = await t.addUser('analyst@localhost', 'member');
    const empty = await call('GET', '/v1/user/team/default-members');
    expect(empty).toEqual({ status: 200, body: { message: 'ok', members: [] } });
    pdcp('GET', '/v1/user/team/default-members', 200, empty.body);

    const set = await call('POST', '/v1/user/team/default-members', {
      members: [
        { email: 'Analyst@localhost', role: 'VIEWER' },
        { email: 'later@localhost', role: 'MEMBER' },
      ],
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    pdcp('POST', '/v1/user/team/default-members', 200, set.body);
    const listed = await call('GET', '/v1/user/team/default-members');
    expect(listed.body.members).toEqual([
      { email: 'analyst@localhost', role: 'VIEWER' },
      { email: 'later@localhost', role: 'MEMBER' },
    ]);

    // A team the admin creates: the analyst is invited as a viewer; the address without an account waits.
    const made = await call('POST', '/v1/user/team', { name: 'Red team' }, admin.key);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const teamId = made.body.team_id as string;
    const { rows } = await t.ctx.db.query<{ email: string; role: string; status: string }>(
      `SELECT u.email, m.role, m.status FROM team_members m JOIN users u ON u.id = m.user_id WHERE m.team_id = $1 ORDER BY u.email`,
      [teamId],
    );
    expect(rows).toEqual([
      { email: 'admin@localhost', role: 'OWNER', status: 'ACCEPTED' },
      { email: 'analyst@localhost', role: 'VIEWER', status: 'INVITED' },
    ]);
    // The analyst reaches the team with its role (read only).
    const inTeam = await t.request({
      method: 'GET',
      url: '/v1/user',
      key: analyst.key,
      headers: { 'x-team-id': teamId },
    });
    expect(inTeam.json()).toMatchObject({ team_id: teamId, role: 'VIEWER' });

    // Only the instance owner: a team admin may not read or change them.
    const refused = await call('GET', '/v1/user/team/default-members', undefined, admin.key);
    expect(refused.status).toBe(403);
    pdcp('GET', '/v1/user/team/default-members', 403, refused.body);
    expect((await call('POST', '/v1/user/team/default-members', { members: [] }, admin.key)).status).toBe(403);

    for (const [payload, param] of [
      [{ members: [{ email: 'x@localhost', role: 'OWNER' }] }, 'members[0].role'],
      [
        {
          members: [
            { email: 'x@localhost', role: 'MEMBER' },
            { email: 'X@localhost', role: 'GUEST' },
          ],
        },
        'members[1].email',
      ],
    ] as const) {
      const bad = await call('POST', '/v1/user/team/default-members', payload);
      expect(bad).toMatchObject({ status: 400, body: { param } });
      pdcp('POST', '/v1/user/team/default-members', 400, bad.body);
    }
    expect(
      (await call('POST', '/v1/user/team/default-members', { members: [{ email: 'no-at', role: 'MEMBER' }] })).status,
    ).toBe(400);

    const one = await call('DELETE', '/v1/user/team/default-members', { email: 'later@localhost' });
    expect(one).toEqual({ status: 200, body: { message: '1 default team member removed' } });
    pdcp('DELETE', '/v1/user/team/default-members', 200, one.body);
    expect((await call('DELETE', '/v1/user/team/default-members', { email: 'later@localhost' })).status).toBe(404);
    const all = await call('DELETE', '/v1/user/team/default-members');
    expect(all.body.message).toBe('1 default team member removed');
    expect((await call('GET', '/v1/user/team/default-members')).body.members).toEqual([]);
  });

  it('creates a key only when there is none, and revokes it at once', async () => {
    const user = await t.addUser('keys@localhost', 'member');
    const again = await call('POST', '/v1/user/apikey', undefined, user.key);
    expect(again).toMatchObject({ status: 409, body: { code: 'conflict' } });
    pdcp('POST', '/v1/user/apikey', 409, again.body);

    const revoked = await call('DELETE', '/v1/user/apikey', undefined, user.key);
    expect(revoked.status).toBe(200);
    pdcp('DELETE', '/v1/user/apikey', 200, revoked.body);
    expect((await call('GET', '/v1/user', undefined, user.key)).status).toBe(401);

    // With the console's session, a new key, shown once; it works, and a second create is refused.
    const session = await createSession(t.ctx.db, user.userId);
    const withSession = (method: 'POST' | 'DELETE') =>
      t.request({
        method,
        url: '/v1/user/apikey',
        key: null,
        headers: { cookie: `vigil_session=${session.token}`, 'x-csrf-token': session.csrfToken },
      });
    const created = await withSession('POST');
    expect(created.statusCode, created.body).toBe(200);
    pdcp('POST', '/v1/user/apikey', 200, created.json());
    const key = created.json().api_key as string;
    expect((await call('GET', '/v1/user', undefined, key)).status).toBe(200);
    expect((await withSession('POST')).statusCode).toBe(409);
    expect((await withSession('DELETE')).statusCode).toBe(200);
    const none = await withSession('DELETE');
    expect(none.statusCode).toBe(404);
    pdcp('DELETE', '/v1/user/apikey', 404, none.json());
    expect((await call('GET', '/v1/user', undefined, key)).status).toBe(401);
  });
});
