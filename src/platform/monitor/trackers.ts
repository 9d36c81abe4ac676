// One ticket per finding in an issue tracker, through each tracker's public REST (Linear: GraphQL) API.
// A finding that already has a ticket under the same reporting config (same vuln_hash) gets a comment
// saying it was seen again, never a second ticket.
import type { AppContext } from '../shared/context.ts';
import { send, SendError } from './http-send.ts';
import * as store from './delivery-store.ts';

export interface Finding {
  vuln_hash: string;
  template_id: string;
  name: string;
  severity: string;
  host: string;
  matched_at: string;
  tags: string[];
  description: string;
}

interface TicketPayload {
  scan_id: string;
  scan_name: string;
  run: number;
  finding: Finding;
}

interface Created {
  id: string;
  url: string;
}

interface Tracker {
  create(title: string, body: string, labels: string[]): Promise<Created>;
  comment(id: string, body: string): Promise<void>;
  /** Reads the project (nothing is created): the address, credentials and project name work. */
  check(): Promise<void>;
}

const trim = (u: string) => u.replace(/\/+$/, '');

/** An issue number as trackers give them: a positive whole number (anything else is not passed on). */
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/**
 * A ticket link from a tracker's answer, shown to every member: an http(s) URL of bounded length, else
 * nothing. An answer's other text is never passed on as a link.
 */
export function ticketUrl(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048) return '';
  try {
    const u = new URL(value);
    return /^https?:$/.test(u.protocol) ? u.href : '';
  } catch {
    return '';
  }
}
const json = { 'content-type': 'application/json', accept: 'application/json' };

function title(f: Finding): string {
  return `[${f.severity}] ${f.name} (${f.template_id}) at ${f.host}`.slice(0, 250);
}

function body(p: TicketPayload): string {
  const f = p.finding;
  return [
    `**${f.name}** (\`${f.template_id}\`), severity **${f.severity}**`,
    '',
    `- Matched at: ${f.matched_at}`,
    `- Host: ${f.host}`,
    `- Tags: ${f.tags.join(', ') || '-'}`,
    `- Scan: ${p.scan_name} (${p.scan_id}), run ${p.run}`,
    `- vuln_hash: ${f.vuln_hash}`,
    ...(f.description ? ['', f.description] : []),
    '',
    'Reported by Vigil.',
  ].join('\n');
}

function trackerFor(ctx: AppContext, doc: Record<string, any>): { name: string; api: Tracker } {
  const cfg = ctx.config;
  if (doc.github) {
    const g = doc.github;
    const base = `${trim(g['base-url'] ?? 'https://api.github.com')}/repos/${encodeURIComponent(g.owner)}/${encodeURIComponent(g['project-name'])}`;
    const headers = {
      ...json,
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${g.token}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'vigil',
    };
    return {
      name: 'github',
      api: {
        async create(t, b, labels) {
          const r = await send(cfg, `${base}/issues`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ title: t, body: b, labels }),
          });
          const j = r.json as { number?: number; html_url?: string };
          if (!isCount(j?.number)) throw new SendError('GitHub answered without an issue number');
          return { id: String(j.number), url: ticketUrl(j.html_url) };
        },
        async comment(id, b) {
          await send(cfg, `${base}/issues/${id}/comments`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ body: b }),
          });
        },
        async check() {
          await send(cfg, base, { method: 'GET', headers });
        },
      },
    };
  }
  if (doc.gitlab) {
    const g = doc.gitlab;
    const base = `${trim(g['base-url'] ?? 'https://gitlab.com')}/api/v4/projects/${encodeURIComponent(g['project-name'])}`;
    const headers = { ...json, 'private-token': g.token };
    return {
      name: 'gitlab',
      api: {
        async create(t, b, labels) {
          const r = await send(cfg, `${base}/issues`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ title: t, description: b, labels: labels.join(',') }),
          });
          const j = r.json as { iid?: number; web_url?: string };
          if (!isCount(j?.iid)) throw new SendError('GitLab answered without an issue iid');
          return { id: String(j.iid), url: ticketUrl(j.web_url) };
        },
        async comment(id, b) {
          await send(cfg, `${base}/issues/${id}/notes`, { method: 'POST', headers, body: JSON.stringify({ body: b }) });
        },
        async check() {
          await send(cfg, base, { method: 'GET', headers });
        },
      },
    };
  }
  if (doc.jira) {
    const g = doc.jira;
    const base = trim(g.url);
    const authorization = g.email
      ? `Basic ${Buffer.from(`${g.email}:${g.token}`).toString('base64')}`
      : `Bearer ${g.token}`;
    const headers = { ...json, authorization };
    return {
      name: 'jira',
      api: {
        async create(t, b, labels) {
          const fields = {
            project: { key: g['project-name'] },
            summary: t,
            description: b,
            issuetype: { name: g['issue-type'] ?? 'Bug' },
            ...(labels.length ? { labels } : {}),
          };
          const r = await send(cfg, `${base}/rest/api/2/issue`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ fields }),
          });
          const j = r.json as { key?: string };
          if (typeof j?.key !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{0,63}-\d{1,12}$/.test(j.key))
            throw new SendError('Jira answered without an issue key');
          return { id: j.key, url: ticketUrl(`${base}/browse/${encodeURIComponent(j.key)}`) };
        },
        async comment(id, b) {
          await send(cfg, `${base}/rest/api/2/issue/${encodeURIComponent(id)}/comment`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ body: b }),
          });
        },
        async check() {
          await send(cfg, `${base}/rest/api/2/project/${encodeURIComponent(g['project-name'])}`, {
            method: 'GET',
            headers,
          });
        },
      },
    };
  }
  if (doc.linear) {
    const g = doc.linear;
    const url = `${trim(g['base-url'] ?? 'https://api.linear.app')}/graphql`;
    const headers = { ...json, authorization: g['api-key'] };
    const gql = async (query: string, variables: unknown) => {
      const r = await send(cfg, url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
      const j = r.json as { data?: any; errors?: unknown[] };
      if (!j || j.errors?.length) throw new SendError('Linear answered with errors');
      return j.data;
    };
    return {
      name: 'linear',
      api: {
        async create(t, b) {
          const input = {
            teamId: g['team-id'],
            title: t,
            description: b,
            ...(g['project-id'] ? { projectId: g['project-id'] } : {}),
          };
          const d = await gql(
            'mutation IssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier url } } }',
            { input },
          );
          const issue = d?.issueCreate?.issue;
          if (!d?.issueCreate?.success || typeof issue?.id !== 'string' || !/^[\w-]{1,64}$/.test(issue.id))
            throw new SendError('Linear did not create the issue');
          return { id: issue.id, url: ticketUrl(issue.url) };
        },
        async comment(id, b) {
          const d = await gql(
            'mutation CommentCreate($input: CommentCreateInput!) { commentCreate(input: $input) { success } }',
            { input: { issueId: id, body: b } },
          );
          if (!d?.commentCreate?.success) throw new SendError('Linear did not add the comment');
        },
        async check() {
          const d = await gql('query Team($id: String!) { team(id: $id) { id } }', { id: g['team-id'] });
          if (typeof d?.team?.id !== 'string') throw new SendError('Linear does not know the team');
        },
      },
    };
  }
  if (doc.gitea) {
    const g = doc.gitea;
    const base = `${trim(g['base-url'])}/api/v1/repos/${encodeURIComponent(g['project-owner'])}/${encodeURIComponent(g['project-name'])}`;
    const headers = { ...json, authorization: `token ${g.token}` };
    return {
      name: 'gitea',
      api: {
        async create(t, b) {
          const r = await send(cfg, `${base}/issues`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ title: t, body: b }),
          });
          const j = r.json as { number?: number; html_url?: string };
          if (!isCount(j?.number)) throw new SendError('Gitea answered without an issue number');
          return { id: String(j.number), url: ticketUrl(j.html_url) };
        },
        async comment(id, b) {
          await send(cfg, `${base}/issues/${id}/comments`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ body: b }),
          });
        },
        async check() {
          await send(cfg, base, { method: 'GET', headers });
        },
      },
    };
  }
  throw new SendError('the reporting config names no known tracker', null, false);
}

/** Opens (or, for a finding that has one, comments on) the ticket of one finding. */
export async function deliverTicket(
  ctx: AppContext,
  configId: string,
  doc: Record<string, any>,
  p: TicketPayload,
): Promise<void> {
  const { name, api } = trackerFor(ctx, doc);
  const f = p.finding;
  const reserved = await store.reserveTicket(ctx.db, configId, f.vuln_hash, name);
  if (reserved !== true) {
    if (!reserved.external_id) throw new SendError('the ticket of this finding is being created by another attempt');
    await api.comment(
      reserved.external_id,
      `Seen again by Vigil in scan ${p.scan_name} (${p.scan_id}), run ${p.run}: ${f.matched_at}`,
    );
    await store.touchTicket(ctx.db, configId, f.vuln_hash);
    return;
  }
  const label = (doc[name] as { 'issue-label'?: string })['issue-label'];
  let created: Created;
  try {
    created = await api.create(title(f), body(p), label ? [label] : []);
  } catch (err) {
    await store.releaseTicket(ctx.db, configId, f.vuln_hash);
    throw err;
  }
  await store.completeTicket(ctx.db, configId, f.vuln_hash, created.id, created.url);
}

/** Checks a reporting config against its tracker by reading the project; creates nothing. */
export async function checkTracker(ctx: AppContext, doc: Record<string, any>): Promise<string> {
  const { name, api } = trackerFor(ctx, doc);
  await api.check();
  return name;
}
