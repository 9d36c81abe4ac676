// Tickets for findings in GitHub, GitLab, Jira, Linear and Gitea, through local HTTP servers that answer
// as each tracker's API does (paths, auth headers, request and response bodies). One ticket per finding
// and reporting config; a rescan that sees the finding again comments on it, never opens a second one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { waitFor } from '../../helpers/queue.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { createScanApp, MARKER_TEMPLATE, HEADER_TEMPLATE, type ScanTestApp } from '../scans/fixtures.ts';
import { startMonitor, type MonitorHandle } from '../../../src/platform/monitor/loop.ts';
import '../../../src/platform/monitor/steps.ts';

interface Issue {
  tracker: string;
  id: string;
  title: string;
  body: string;
  labels: unknown;
  comments: string[];
}

/** One server playing the five trackers under different path prefixes. */
function trackerServer(issues: Issue[], opts: { failFirstGithub: boolean }) {
  let githubCalls = 0;
  const send = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  const comment = (tracker: string, id: string, text: string) => {
    const issue = issues.find((i) => i.tracker === tracker && i.id === id);
    if (!issue) return false;
    issue.comments.push(text);
    return true;
  };
  return startHttpServer((req, res, raw) => {
    const url = req.url ?? '';
    const h = req.headers;
    let body: any = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return send(res, 400, { message: 'Problems parsing JSON' });
    }
    let m: RegExpExecArray | null;
    // GitHub REST: POST /repos/{owner}/{repo}/issues, /issues/{number}/comments; Bearer token.
    if (url.startsWith('/gh/')) {
      if (h.authorization !== 'Bearer ghp_tok' || !String(h.accept).includes('application/vnd.github+json'))
        return send(res, 401, { message: 'Bad credentials' });
      if (req.method === 'POST' && url === '/gh/repos/acme/web/issues') {
        if (opts.failFirstGithub && githubCalls++ === 0) return send(res, 502, { message: 'Server Error' });
        if (!body.title) return send(res, 422, { message: 'Validation Failed' });
        const n = String(issues.filter((i) => i.tracker === 'github').length + 1);
        issues.push({
          tracker: 'github',
          id: n,
          title: body.title,
          body: body.body,
          labels: body.labels,
          comments: [],
        });
        return send(res, 201, {
          id: 1000 + Number(n),
          number: Number(n),
          html_url: `https://github.example/acme/web/issues/${n}`,
          state: 'open',
        });
      }
      if (req.method === 'POST' && (m = /^\/gh\/repos\/acme\/web\/issues\/(\d+)\/comments$/.exec(url))) {
        return comment('github', m[1]!, body.body)
          ? send(res, 201, { id: 1 })
          : send(res, 404, { message: 'Not Found' });
      }
      return send(res, 404, { message: 'Not Found' });
    }
    // GitLab REST v4: POST /api/v4/projects/:id/issues, /issues/:iid/notes; PRIVATE-TOKEN.
    if (url.startsWith('/gl/')) {
      if (h['private-token'] !== 'glpat-tok') return send(res, 401, { message: '401 Unauthorized' });
      if (req.method === 'POST' && url === '/gl/api/v4/projects/group%2Fweb/issues') {
        if (!body.title) return send(res, 400, { error: 'title is missing' });
        const n = String(issues.filter((i) => i.tracker === 'gitlab').length + 1);
        issues.push({
          tracker: 'gitlab',
          id: n,
          title: body.title,
          body: body.description,
          labels: body.labels,
          comments: [],
        });
        return send(res, 201, {
          id: 500 + Number(n),
          iid: Number(n),
          web_url: `https://gitlab.example/group/web/-/issues/${n}`,
        });
      }
      if (req.method === 'POST' && (m = /^\/gl\/api\/v4\/projects\/group%2Fweb\/issues\/(\d+)\/notes$/.exec(url))) {
        return comment('gitlab', m[1]!, body.body)
          ? send(res, 201, { id: 1 })
          : send(res, 404, { message: '404 Not found' });
      }
      return send(res, 404, { message: '404 Not found' });
    }
    // Jira REST v2: POST /rest/api/2/issue {fields}, /issue/{key}/comment; Basic email:token.
    if (url.startsWith('/jira/')) {
      if (h.authorization !== `Basic ${Buffer.from('bot@acme.test:jira-tok').toString('base64')}`)
        return send(res, 401, { errorMessages: ['Unauthorized'] });
      if (req.method === 'POST' && url === '/jira/rest/api/2/issue') {
        const f = body.fields ?? {};
        if (f.project?.key !== 'SEC' || !f.summary || !f.issuetype?.name)
          return send(res, 400, { errorMessages: [], errors: { summary: 'required' } });
        const key = `SEC-${issues.filter((i) => i.tracker === 'jira').length + 1}`;
        issues.push({
          tracker: 'jira',
          id: key,
          title: f.summary,
          body: f.description,
          labels: f.labels,
          comments: [],
        });
        return send(res, 201, { id: '10001', key, self: `http://jira.example/rest/api/2/issue/10001` });
      }
      if (req.method === 'POST' && (m = /^\/jira\/rest\/api\/2\/issue\/(SEC-\d+)\/comment$/.exec(url))) {
        return comment('jira', m[1]!, body.body)
          ? send(res, 201, { id: '1' })
          : send(res, 404, { errorMessages: ['Issue does not exist'] });
      }
      return send(res, 404, { errorMessages: ['not found'] });
    }
    // Linear GraphQL: POST /graphql, Authorization: <api key>; issueCreate / commentCreate mutations.
    if (url === '/linear/graphql') {
      if (h.authorization !== 'lin_api_tok')
        return send(res, 400, { errors: [{ message: 'Authentication required, not authenticated' }] });
      const input = body.variables?.input ?? {};
      if (/issueCreate\(/.test(body.query ?? '')) {
        if (input.teamId !== 'team-uuid' || !input.title)
          return send(res, 400, { errors: [{ message: 'Argument Validation Error' }] });
        const n = issues.filter((i) => i.tracker === 'linear').length + 1;
        const id = `lin-${n}`;
        issues.push({
          tracker: 'linear',
          id,
          title: input.title,
          body: input.description,
          labels: undefined,
          comments: [],
        });
        return send(res, 200, {
          data: {
            issueCreate: {
              success: true,
              issue: { id, identifier: `SEC-${n}`, url: `https://linear.example/issue/SEC-${n}` },
            },
          },
        });
      }
      if (/commentCreate\(/.test(body.query ?? '')) {
        return send(
          res,
          200,
          comment('linear', input.issueId, input.body)
            ? { data: { commentCreate: { success: true } } }
            : { data: null, errors: [{ message: 'Entity not found' }] },
        );
      }
      return send(res, 400, { errors: [{ message: 'Unknown query' }] });
    }
    // Gitea API v1: POST /api/v1/repos/{owner}/{repo}/issues, /issues/{index}/comments; "token" auth.
    if (url.startsWith('/gitea/')) {
      if (h.authorization !== 'token gitea-tok') return send(res, 401, { message: 'token is required' });
      if (req.method === 'POST' && url === '/gitea/api/v1/repos/acme/web/issues') {
        if (!body.title) return send(res, 422, { message: '[Title]: Required' });
        const n = String(issues.filter((i) => i.tracker === 'gitea').length + 1);
        issues.push({ tracker: 'gitea', id: n, title: body.title, body: body.body, labels: undefined, comments: [] });
        return send(res, 201, {
          id: 700 + Number(n),
          number: Number(n),
          html_url: `https://gitea.example/acme/web/issues/${n}`,
        });
      }
      if (req.method === 'POST' && (m = /^\/gitea\/api\/v1\/repos\/acme\/web\/issues\/(\d+)\/comments$/.exec(url))) {
        return comment('gitea', m[1]!, body.body)
          ? send(res, 201, { id: 1 })
          : send(res, 404, { message: 'not found' });
      }
      return send(res, 404, { message: 'not found' });
    }
    return send(res, 404, {});
  });
}

describe.each(dbKinds())('reporting to issue trackers on %s', (kind) => {
  let t: ScanTestApp;
  let target: TestServer;
  let trackers: TestServer;
  let monitor: MonitorHandle;
  const issues: Issue[] = [];
  let second = false;

  beforeAll(async () => {
    process.env.VIGIL_DELIVERY_RETRY_BASE = '0.2';
    t = await createScanApp(kind, { egressAllow: ['127.0.0.0/8'] });
    target = await startHttpServer((req, res) => {
      res.setHeader('X-Powered-By', 'PHP/7.4.3');
      res.end(req.url?.endsWith('/vuln') && second ? 'VULNERABLE-MARKER' : 'hello');
    });
    trackers = await trackerServer(issues, { failFirstGithub: true });
    monitor = startMonitor(t.ctx, 100);
  });
  afterAll(async () => {
    await monitor?.stop();
    await t?.close();
    await Promise.all([target, trackers].map((s) => s?.close()));
    delete process.env.VIGIL_DELIVERY_RETRY_BASE;
  });

  const config = async (name: string, yaml: string) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/config',
      payload: { name, config_type: 'reporting', config: yaml },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };

  it('opens one ticket per finding in each tracker and only comments when a rescan sees it again', async () => {
    const base = trackers.url;
    const ids = {
      github: await config(
        'gh',
        `github: {base-url: "${base}/gh", owner: acme, project-name: web, token: ghp_tok, issue-label: vigil}\n`,
      ),
      gitlab: await config(
        'gl',
        `gitlab: {base-url: "${base}/gl", project-name: group/web, token: glpat-tok, issue-label: security}\n`,
      ),
      jira: await config(
        'jira',
        `jira: {url: "${base}/jira", project-name: SEC, email: bot@acme.test, token: jira-tok}\n`,
      ),
      linear: await config(
        'linear',
        `linear: {base-url: "${base}/linear", api-key: lin_api_tok, team-id: team-uuid}\n`,
      ),
      gitea: await config(
        'gitea',
        `gitea: {base-url: "${base}/gitea", project-owner: acme, project-name: web, token: gitea-tok}\nallow-list: {severity: [high, critical]}\n`,
      ),
    };
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        name: 'tickets',
        targets: [target.url],
        private_templates: [
          { name: 'm.yaml', contents: MARKER_TEMPLATE },
          { name: 'h.yaml', contents: HEADER_TEMPLATE },
        ],
        reporting_config_ids: Object.values(ids),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    await t.waitStatus(id, ['finished']);
    // Run 0: one finding (the info header); gitea's allow-list wants high or critical only.
    await waitFor(
      async () => ['github', 'gitlab', 'jira', 'linear'].every((tr) => issues.some((i) => i.tracker === tr)),
      20_000,
    );
    const first = issues.map((i) => `${i.tracker}:${i.id}`).sort();
    expect(first).toEqual(['github:1', 'gitlab:1', 'jira:SEC-1', 'linear:lin-1']);
    const gh = issues.find((i) => i.tracker === 'github')!;
    expect(gh.title).toBe(`[info] Powered-by header (test-powered-by) at ${target.url}`);
    expect(gh.body).toContain('vuln_hash:');
    expect(gh.labels).toEqual(['vigil']);
    expect(issues.find((i) => i.tracker === 'gitlab')!.labels).toBe('security');
    // GitHub answered 502 once: the ticket was retried and created once.
    const ghDeliveries = await waitFor(async () => {
      const list = (await t.request({ method: 'GET', url: `/v1/scans/config/${ids.github}/deliveries` })).json();
      return list[0]?.status === 'delivered' && list;
    }, 10_000);
    expect(ghDeliveries).toHaveLength(1);
    expect(ghDeliveries[0]).toMatchObject({
      kind: 'ticket',
      status: 'delivered',
      attempts: 2,
      ticket_id: '1',
      ticket_url: 'https://github.example/acme/web/issues/1',
    });

    // Rescan: the header finding again (comment), and the marker (high) new: a ticket everywhere, gitea too.
    second = true;
    expect((await t.request({ method: 'POST', url: `/v1/scans/${id}/rescan` })).statusCode).toBe(200);
    await waitFor(async () => {
      const s = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
      return s.rescan_count === 1 && s.status === 'finished';
    }, 30_000);
    await waitFor(async () => issues.length === 9 && issues.filter((i) => i.comments.length).length === 4, 20_000);
    const byTracker = (tr: string) => issues.filter((i) => i.tracker === tr);
    for (const tr of ['github', 'gitlab', 'jira', 'linear']) {
      expect(byTracker(tr), tr).toHaveLength(2);
      expect(byTracker(tr)[0]!.comments, tr).toHaveLength(1);
      expect(byTracker(tr)[0]!.comments[0], tr).toMatch(/Seen again by Vigil .* run 1/);
      expect(byTracker(tr)[1]!.title, tr).toMatch(/^\[high\] Marker page/);
    }
    expect(byTracker('gitea')).toHaveLength(1);
    expect(byTracker('gitea')[0]!.title).toMatch(/^\[high\] Marker page/);

    // A third run: everything seen again, no new ticket anywhere.
    expect((await t.request({ method: 'POST', url: `/v1/scans/${id}/rescan` })).statusCode).toBe(200);
    await waitFor(async () => {
      const s = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
      return s.rescan_count === 2 && s.status === 'finished';
    }, 30_000);
    await waitFor(async () => issues.reduce((n, i) => n + i.comments.length, 0) === 4 + 9, 20_000);
    expect(issues).toHaveLength(9);
    const tickets = await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM report_tickets');
    expect(tickets.rows[0]!.n).toBe(9);
  }, 120_000);
});
