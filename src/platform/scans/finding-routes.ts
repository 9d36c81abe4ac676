// Working findings, with the hosted platform's paths and bodies: GET /v1/scans/vuln/{vuln_id}, PATCH and
// DELETE /v1/scans/vulns, PATCH /v1/scans/vulns/labels, the changelogs, and retests
// (POST /v1/scans/{vuln_id}/retest, GET /v1/retest/{vuln_id}). Reading: any member; changing: Admin, Owner.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import * as triage from './triage.ts';
import { retest, retestState } from './retest.ts';
import { ResultItem } from './schemas.ts';
import { VULN_STATUSES } from './result-filter.ts';

const tags = ['results'];
const Str = Type.String({ maxLength: 4096 });
const Ids = Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10_000 });
const StrList = Type.Array(Str, { maxItems: 1000 });
const VulnIdParams = Type.Object({ vuln_id: Type.String({ minLength: 1, maxLength: 100 }) });
const Message = Type.Object({ message: Type.String() });

const Filter = {
  type: Type.Optional(Type.String({ maxLength: 100, description: 'accepted for compatibility; not used' })),
  scan_id: Type.Optional(Type.String({ maxLength: 200 })),
  severity: Type.Optional(StrList),
  host: Type.Optional(StrList),
  template: Type.Optional(StrList),
  search: Type.Optional(Str),
};

const StatusBody = Type.Object(
  {
    vuln_ids: Type.Optional(Ids),
    vuln_status: Type.Union(
      VULN_STATUSES.map((s) => Type.Literal(s)),
      { description: VULN_STATUSES.join(', ') },
    ),
    ...Filter,
  },
  { additionalProperties: false },
);
const DeleteBody = Type.Object(
  { ids: Type.Optional(Ids), vuln_status: Type.Optional(StrList), ...Filter },
  { additionalProperties: false },
);
const LabelsBody = Type.Object(
  {
    ids: Ids,
    type: Type.Optional(Type.String({ maxLength: 100 })),
    labels: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);
const RetestBody = Type.Object(
  {
    socks5_proxy: Type.Optional(Type.String({ maxLength: 500 })),
    agent_id: Type.Optional(Type.String({ maxLength: 200 })),
    agent_tags: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
    agent_networks: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);

const ChangelogQuery = Type.Object({
  time: Type.Optional(
    Type.String({
      description: 'last_day, last_week, last_month, last_3_months, last_6_months, last_12_months, all_time',
    }),
  ),
  event_type: Type.Optional(
    Type.String({ maxLength: 200, description: 'comma-separated: vuln_status, labels, retest' }),
  ),
  sort_asc: Type.Optional(Type.String({ maxLength: 100, description: 'created_at' })),
  sort_desc: Type.Optional(Type.String({ maxLength: 100, description: 'created_at' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
});
const ChangeEvent = Type.Object({ name: Type.String(), from: Type.Unknown(), to: Type.Unknown() });
const ChangelogItem = Type.Composite([
  Type.Omit(ResultItem, ['created_at']),
  Type.Object({
    change_id: Type.String(),
    event_type: Type.String({ description: 'vuln_status, labels or retest' }),
    change_event: Type.Array(ChangeEvent),
    changed_by: Type.String({ description: "the person's email, or system for a scan run" }),
    source: Type.String({ description: 'api, platform (the console), scan or retest' }),
    created_at: Type.String({ description: 'when the change was made' }),
  }),
]);
const ChangelogResponse = Type.Object({ data: Type.Array(ChangelogItem), total: Type.Integer() });

const RetestResponse = Type.Object({ message: Type.String(), results: ResultItem, retest_scan_id: Type.String() });
const RetestState = Type.Object({
  message: Type.String(),
  retest_status: Type.String({ description: 'running, matched, not_matched or failed' }),
  retest_scan_id: Type.String(),
  requested_by: Type.String(),
  retested_at: Type.String(),
  finished_at: Type.Optional(Type.String()),
  results: Type.Composite([
    Type.Omit(ResultItem, ['event']),
    Type.Object({ event: Type.Array(Type.Record(Type.String(), Type.Unknown())) }),
  ]),
});

/** How the caller came: the console's session or an API key. */
const sourceOf = (req: FastifyRequest): triage.Source => (req.session ? 'platform' : 'api');

export const findingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/v1/scans/vuln/:vuln_id',
    {
      config: { action: 'results:view' },
      schema: {
        tags,
        summary: 'One finding by its vuln_id',
        params: VulnIdParams,
        response: { 200: ResultItem, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => triage.getFinding(ctx, req.caller.teamId, req.params.vuln_id),
  );

  app.patch(
    '/v1/scans/vulns',
    {
      config: { action: 'results:manage' },
      schema: {
        tags,
        summary: 'Set the status of findings: by vuln_ids, or of every finding a filter selects',
        body: StatusBody,
        response: { 200: Message, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const n = await triage.setStatus(ctx, req.caller, sourceOf(req), req.body);
      return { message: `${n} finding${n === 1 ? '' : 's'} set to ${req.body.vuln_status}` };
    },
  );

  app.delete(
    '/v1/scans/vulns',
    {
      config: { action: 'results:manage' },
      schema: {
        tags,
        summary: 'Delete findings: by ids, or every finding a filter selects',
        body: DeleteBody,
        response: { 200: Message, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const scans = await triage.deleteFindings(ctx, req.caller, req.body);
      return { message: `findings deleted from ${scans} scan${scans === 1 ? '' : 's'}` };
    },
  );

  app.patch(
    '/v1/scans/vulns/labels',
    {
      config: { action: 'results:manage' },
      schema: {
        tags,
        summary: 'Set the labels of findings (replaces their labels; an empty list clears them)',
        body: LabelsBody,
        response: { 200: Message, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const n = await triage.setLabels(ctx, req.caller, sourceOf(req), req.body);
      return { message: `labels of ${n} finding${n === 1 ? '' : 's'} changed` };
    },
  );

  app.get(
    '/v1/scans/vuln/changelogs',
    {
      config: { action: 'results:view' },
      schema: {
        tags,
        summary: "Changelogs of all the team's findings: every status, label and retest change, who and when",
        querystring: ChangelogQuery,
        response: { 200: ChangelogResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => triage.changelogs(ctx, req.caller.teamId, undefined, req.query),
  );

  app.get(
    '/v1/scans/vuln/:vuln_id/changelogs',
    {
      config: { action: 'results:view' },
      schema: {
        tags,
        summary: "A finding's changelog: every status, label and retest change, who and when",
        params: VulnIdParams,
        querystring: ChangelogQuery,
        response: { 200: ChangelogResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => triage.changelogs(ctx, req.caller.teamId, req.params.vuln_id, req.query),
  );

  app.post(
    '/v1/scans/:vuln_id/retest',
    {
      config: { action: 'results:manage' },
      schema: {
        tags,
        summary: 'Retest a finding: its template against its target as a small scan; no match moves it to fixed',
        params: VulnIdParams,
        body: Type.Optional(RetestBody),
        response: { 200: RetestResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => retest(ctx, req.caller, req.params.vuln_id, req.body ?? {}),
  );

  app.get(
    '/v1/retest/:vuln_id',
    {
      config: { action: 'results:view' },
      schema: {
        tags: ['retests'],
        summary: "The latest retest of a finding and the finding's state",
        params: VulnIdParams,
        response: { 200: RetestState, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => retestState(ctx, req.caller.teamId, req.params.vuln_id),
  );
};
