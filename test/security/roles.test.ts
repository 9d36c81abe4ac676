// Role x operation matrix over every route the app has (read from its route table, so a route added
// later is checked too): Owner, Admin, Member, Viewer, Guest and no key, against the spec's role rules:
// reading is open to every member of a team; changing anything (scans, templates, members, settings,
// configurations, assets) needs Admin or Owner; deleting the team needs the Owner. Exceptions are listed
// here by route, so an unusual rule is a conscious choice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.ts';
import { startTestQueue } from '../helpers/queue.ts';
import { issueKey } from '../../src/platform/auth/service.ts';

type Who = 'OWNER' | 'ADMIN' | 'MEMBER' | 'VIEWER' | 'GUEST';
const ROLES: Who[] = ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER', 'GUEST'];
const ANY: Who[] = ROLES;
const MANAGERS: Who[] = ['OWNER', 'ADMIN'];

/** Routes whose rule is not the default one (reads: anyone in the team; writes: Owner and Admin). */
const EXCEPTIONS: Record<string, Who[] | 'public' | 'agent'> = {
  'POST /v1/user/apikey/rotate': ANY, // every user rotates their own key
  'POST /v1/user/apikey': ANY, // every user creates their own key (409 here: they have one)
  'DELETE /v1/user/apikey': ANY, // every user revokes their own key (a new one is issued below)
  // The instance's default team members: the instance owner only (here the team's Owner).
  'GET /v1/user/team/default-members': ['OWNER'],
  'POST /v1/user/team/default-members': ['OWNER'],
  'DELETE /v1/user/team/default-members': ['OWNER'],
  // Creating a team is an instance decision (VIGIL_TEAM_CREATION, default: the instance owner and the
  // users it allowed), not a team role's: here the team's Owner is the instance owner, the others are not.
  'POST /v1/user/team': ['OWNER'],
  // Instance-wide settings: the instance owner only (here the team's Owner), whatever the team role.
  'GET /v1/instance/team-creators': ['OWNER'],
  'POST /v1/instance/team-creators': ['OWNER'],
  'DELETE /v1/instance/team-creators': ['OWNER'],
  'DELETE /v1/user/team': ['OWNER'],
  // Running unsigned code and javascript templates is a risk the team's Owner alone takes.
  'PATCH /v1/user/team/settings': ['OWNER'],
  // The editor's one-off run sends a scan's traffic: the roles that may start scans (scans:manage).
  'POST /v1/template/run': MANAGERS,
  'GET /v1/export/download/:token': 'public', // the token is the credential
  'GET /v1/template/share/:template_id': 'public', // the share link's token is the credential
  // Reads the hosted platform makes with POST (they answer hosted_only here): open to every member.
  'POST /v1/leaks/export': ANY,
  'POST /v1/leaks/info': ANY,
  // Findings exports with a filter in the body are reads (issue 26): every member may export.
  'POST /v1/scans/:scan_id/export': ANY,
  'POST /v1/scans/results/export': ANY,
  'GET /healthz': 'public',
  'GET /openapi.json': 'public',
  'POST /v1/user/invite/accept': 'public', // a new account's token is its credential; an existing account signs in too
  'POST /v1/user/invite/lookup': 'public', // the token names the invite
  'POST /v1/auth/sign-in': 'public', // the credentials are in the body
  'POST /v1/auth/sign-out': ANY, // everyone ends their own session
  'PUT /v1/user/password': ANY, // everyone sets their own password
  'GET /': 'public', // the console's files
  'GET /*': 'public',
  // An agent's own endpoints take only an agent credential (X-Agent-Key): every user key is refused.
  'POST /v1/agents/me/heartbeat': 'agent',
  'POST /v1/agents/me/lease': 'agent',
  'POST /v1/agents/me/results': 'agent',
  'POST /v1/agents/me/complete': 'agent',
  'POST /v1/agents/me/release': 'agent',
  // Its out-of-band checks, relayed to the platform's OAST server (test/security/agent-oast.test.ts).
  'POST /v1/agents/me/oast/register': 'agent',
  'POST /v1/agents/me/oast/poll': 'agent',
  'POST /v1/agents/me/oast/deregister': 'agent',
};

/**
 * Bodies for routes whose permission is decided in the service from the body (an empty body would stop
 * at validation first). A no-op change: the Guest stays a Guest.
 */
const BODIES: Record<string, unknown> = {
  'PATCH /v1/user/team/member': { email: 'guest-matrix@example.com', role: 'GUEST' },
  'PATCH /v1/user/team/settings': { allow_unsigned_templates: false },
};

function expected(method: string, url: string): Who[] | 'public' | 'agent' {
  const key = `${method} ${url}`;
  if (key in EXCEPTIONS) return EXCEPTIONS[key]!;
  if (url === '/docs' || url.startsWith('/docs/')) return 'public';
  return method === 'GET' ? ANY : MANAGERS;
}

describe('role x operation matrix', () => {
  let t: TestApp;
  let boss: PgBoss;
  const users = {} as Record<Who, TestUser>;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    boss = await startTestQueue(t.testDb);
    t.ctx.queue = boss;
    users.OWNER = { ...t.owner };
    for (const r of ROLES.slice(1)) users[r] = await t.addUser(`${r.toLowerCase()}-matrix@example.com`, r);
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, close: true }).catch(() => {});
    await t?.close();
  });

  it('every route answers each role as the spec says', async () => {
    const routes = t.app.routeTable.filter((r) => !r.url.startsWith('/docs') && r.url !== '*');
    expect(routes.length).toBeGreaterThan(25);
    const violations: string[] = [];
    let tried = 0;
    for (const r of routes) {
      const rule = expected(r.method, r.url);
      // The route's own declaration must agree with the spec's rule (public routes declare public).
      if ((rule === 'public' || rule === 'agent') !== r.public)
        violations.push(
          `${r.method} ${r.url}: declared ${r.public ? 'public' : 'private'}, spec says ${rule === 'public' ? 'public' : 'private'}`,
        );
      const url = r.url.replace(/:([a-z_]+)/g, 'nonexistent-id');
      const body =
        (r.method === 'DELETE' && r.url === '/v1/user/team' ? { team_id: t.owner.teamId } : undefined) ??
        BODIES[`${r.method} ${r.url}`] ??
        (['POST', 'PATCH', 'PUT', 'DELETE'].includes(r.method) ? {} : undefined);
      for (const who of [...ROLES, null] as (Who | null)[]) {
        tried++;
        const res = await t.request({
          method: r.method as 'GET',
          url,
          payload: body,
          key: who ? users[who].key : null,
        });
        if (who && r.url.endsWith('/rotate') && res.json?.().api_key) users[who].key = res.json().api_key; // keep the new key
        // A revoked key: the user gets a new one for the routes that follow.
        if (who && r.method === 'DELETE' && r.url === '/v1/user/apikey' && res.statusCode === 200)
          users[who].key = await issueKey(t.ctx.db, users[who].userId);
        const s = res.statusCode;
        const label = `${r.method} ${r.url} as ${who ?? 'no key'} -> ${s}`;
        if (s >= 500) violations.push(`${label} (server error)`);
        if (rule === 'public') {
          if (s === 401 || s === 403) violations.push(`${label}: public route refused`);
          continue;
        }
        if (rule === 'agent') {
          if (s !== 401) violations.push(`${label}: expected 401 (agent credential only)`);
          continue;
        }
        if (!who) {
          if (s !== 401) violations.push(`${label}: expected 401 without a key`);
        } else if (rule.includes(who)) {
          if (s === 401 || s === 403) violations.push(`${label}: allowed role refused`);
        } else if (s !== 403) {
          violations.push(`${label}: expected 403`);
        }
      }
    }
    console.log(`role matrix: ${routes.length} routes x 6 callers, ${tried} requests, ${violations.length} violations`);
    expect(violations).toEqual([]);
  }, 120_000);
});
