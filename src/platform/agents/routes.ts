// /v1/agents: the team's agents (list, read, register, remove) for its users, and the endpoints a
// `vigil agent` process calls with its own credential (X-Agent-Key): heartbeat, lease a chunk (long
// polling), send result batches, complete or give back a chunk. An agent credential is not an API key:
// every other route refuses it, and these routes reach only the agent's own leases.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import {
  AGENT_LEASE_SECONDS,
  completeChunk,
  leaseWork,
  releaseAgentLease,
  renewAgentLeases,
  storeBatch,
  type ResultEvent,
} from '../scans/agent-work.ts';
import * as agents from './service.ts';
import { agentOastDomain, relayOast } from './oast-relay.ts';

const Tags = Type.Array(Type.String({ maxLength: 63 }), { maxItems: 50 });
const Networks = Type.Array(Type.String({ maxLength: 253 }), { maxItems: 500 });

const Agent = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    tags: Type.Array(Type.String()),
    networks: Type.Array(Type.String()),
    version: Type.String(),
    online: Type.Boolean({ description: 'heard from within the lease time (VIGIL_AGENT_LEASE_SECONDS)' }),
    headless: Type.Boolean({
      description: 'the agent said it found Chromium at its start: chunks of scans with headless templates go to it',
    }),
    last_seen: Type.String({ description: 'ISO time of its last request; empty when never seen' }),
    running_chunks: Type.Integer(),
    key_prefix: Type.String(),
    created_at: Type.String(),
  },
  { $id: 'Agent', title: 'Agent' },
);

const AgentIdParams = Type.Object({ agent_id: Type.String({ maxLength: 64 }) });

const Lease = Type.String({ minLength: 1, maxLength: 64 });

const LogLine = Type.Object({
  target: Type.String({ maxLength: 4096 }),
  template_id: Type.String({ maxLength: 512 }),
  matched: Type.Boolean(),
  severity: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()])),
  error: Type.Optional(Type.Union([Type.String({ maxLength: 8192 }), Type.Null()])),
  at: Type.Optional(Type.String({ maxLength: 40 })),
});

const ResultEventSchema = Type.Object(
  { 'template-id': Type.String({ minLength: 1, maxLength: 512 }) },
  { additionalProperties: true },
);

const WorkSchema = Type.Object({
  scan_id: Type.String(),
  run: Type.Integer(),
  idx: Type.Integer(),
  lease: Type.String(),
  targets: Type.Array(Type.String()),
  templates_key: Type.String(),
  templates: Type.Optional(
    Type.Array(
      Type.Object({
        raw: Type.String(),
        uri: Type.String(),
        payload_files: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
        dependency: Type.Optional(Type.Boolean()),
      }),
    ),
  ),
  options: Type.Object({}, { additionalProperties: true }),
  lease_seconds: Type.Integer(),
});

function agentKey(req: FastifyRequest): string | undefined {
  const v = req.headers['x-agent-key'];
  return Array.isArray(v) ? v[0] : v;
}

export const agentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const tags = ['agents'];
  // The agent credential is checked before the body is validated: without one the answer is 401.
  const who = new WeakMap<FastifyRequest, Awaited<ReturnType<typeof agents.authenticateAgent>>>();
  const agentOnly = {
    config: { public: true },
    onRequest: async (req: FastifyRequest) => {
      who.set(req, await agents.authenticateAgent(ctx.db, agentKey(req)));
    },
  };
  const asAgent = async (req: FastifyRequest) => who.get(req)!;

  app.get(
    '/v1/agents',
    {
      config: { action: 'agents:view' },
      schema: {
        tags,
        summary: "The team's agents: online state, version, tags, networks, last seen, running chunks",
        response: { 200: Type.Object({ agents: Type.Array(Agent) }), ...errorResponses(401, 403) },
      },
    },
    async (req) => ({ agents: await agents.listAgents(ctx, req.caller.teamId) }),
  );

  app.post(
    '/v1/agents',
    {
      config: { action: 'agents:manage' },
      schema: {
        tags,
        summary: 'Register an agent (or re-register the one of that name): its credential is shown once',
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 63 }),
          tags: Type.Optional(Tags),
          networks: Type.Optional(Networks),
          version: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        response: {
          200: Type.Object({ agent: Agent, key: Type.String({ description: 'X-Agent-Key; shown once' }) }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (req) => agents.registerAgent(ctx, req.caller, req.body),
  );

  app.get(
    '/v1/agents/:agent_id',
    {
      config: { action: 'agents:view' },
      schema: {
        tags,
        summary: 'One agent',
        params: AgentIdParams,
        response: { 200: Agent, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => agents.getAgent(ctx, req.caller.teamId, req.params.agent_id),
  );

  app.delete(
    '/v1/agents/:agent_id',
    {
      config: { action: 'agents:manage' },
      schema: {
        tags,
        summary: 'Remove an agent: its credential stops working; scans only it could run fail saying so',
        params: AgentIdParams,
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      await agents.removeAgent(ctx, req.caller.teamId, req.params.agent_id);
      return { message: 'agent removed' };
    },
  );

  // ---- the agent's own endpoints (X-Agent-Key) ----

  app.post(
    '/v1/agents/me/heartbeat',
    {
      ...agentOnly,
      schema: {
        tags,
        summary: 'Agent: declare tags, networks and version, renew the leases of running chunks',
        body: Type.Object({
          tags: Type.Optional(Tags),
          networks: Type.Optional(Networks),
          version: Type.Optional(Type.String({ maxLength: 64 })),
          headless: Type.Optional(
            Type.Boolean({ description: 'Chromium was found at the agent start: it can run headless templates' }),
          ),
          leases: Type.Optional(Type.Array(Lease, { maxItems: 1000 })),
        }),
        response: {
          200: Type.Object({
            id: Type.String(),
            name: Type.String(),
            team_id: Type.String(),
            lost: Type.Array(Type.String(), { description: 'leases no longer held: stop those chunks' }),
            lease_seconds: Type.Integer(),
            oast_domain: Type.Optional(
              Type.String({
                description:
                  "the platform's OAST domain: out-of-band checks register through /v1/agents/me/oast/*; absent when it has none",
              }),
            ),
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (req) => {
      const agent = await asAgent(req);
      await agents.declareAgent(ctx, agent, req.body);
      const lost = await renewAgentLeases(ctx, agent, req.body.leases ?? []);
      const oastDomain = agentOastDomain(ctx);
      return {
        id: agent.id,
        name: agent.name,
        team_id: agent.teamId,
        lost,
        lease_seconds: AGENT_LEASE_SECONDS,
        ...(oastDomain ? { oast_domain: oastDomain } : {}),
      };
    },
  );

  app.post(
    '/v1/agents/me/lease',
    {
      ...agentOnly,
      schema: {
        tags,
        summary: 'Agent: lease a chunk of a scan addressed to it, waiting up to `wait` seconds for one',
        body: Type.Object({
          wait: Type.Optional(Type.Number({ minimum: 0, maximum: 30 })),
          have: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
        }),
        response: { 200: Type.Object({ work: Type.Union([WorkSchema, Type.Null()]) }), ...errorResponses(400, 401) },
      },
    },
    async (req, reply) => {
      const agent = await asAgent(req);
      const gone = new AbortController();
      reply.raw.on('close', () => gone.abort());
      const work = await leaseWork(ctx, agent, req.body.wait ?? 0, req.body.have ?? [], gone.signal);
      return { work: work ?? null };
    },
  );

  app.post(
    '/v1/agents/me/results',
    {
      ...agentOnly,
      schema: {
        tags,
        summary: "Agent: one numbered batch of a leased chunk's findings and scan log lines (stored once)",
        body: Type.Object({
          lease: Lease,
          seq: Type.Integer({ minimum: 1 }),
          results: Type.Array(ResultEventSchema, { maxItems: 1000 }),
          logs: Type.Array(LogLine, { maxItems: 5000 }),
        }),
        response: { 200: Type.Object({ stored: Type.Boolean() }), ...errorResponses(400, 401, 409) },
      },
    },
    async (req) =>
      storeBatch(ctx, await asAgent(req), {
        lease: req.body.lease,
        seq: req.body.seq,
        results: req.body.results as ResultEvent[],
        logs: req.body.logs,
      }),
  );

  app.post(
    '/v1/agents/me/complete',
    {
      ...agentOnly,
      schema: {
        tags,
        summary: 'Agent: the chunk ran to its end; `seq` is its last batch',
        body: Type.Object({ lease: Lease, seq: Type.Integer({ minimum: 0 }) }),
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses(400, 401, 409) },
      },
    },
    async (req) => {
      await completeChunk(ctx, await asAgent(req), req.body.lease, req.body.seq);
      return { message: 'chunk done' };
    },
  );

  app.post(
    '/v1/agents/me/release',
    {
      ...agentOnly,
      schema: {
        tags,
        summary: 'Agent: give a leased chunk back (shutting down); another matching agent runs it',
        body: Type.Object({ lease: Lease }),
        response: { 200: Type.Object({ released: Type.Boolean() }), ...errorResponses(400, 401) },
      },
    },
    async (req) => ({ released: await releaseAgentLease(ctx, await asAgent(req), req.body.lease) }),
  );

  // ---- out-of-band checks: the agent's interactsh clients, relayed to the platform's OAST server ----

  const CorrelationId = Type.String({ pattern: '^[a-z0-9]{20}$', description: 'interactsh correlation id' });
  const Secret = Type.String({ minLength: 8, maxLength: 200 });
  const oastErrors = errorResponses(400, 401, 404, 502);
  app.post(
    '/v1/agents/me/oast/register',
    {
      ...agentOnly,
      schema: {
        tags,
        summary: "Agent: register an interactsh client with the platform's OAST server (relayed; docs/oast.md)",
        body: Type.Object({
          'public-key': Type.String({ minLength: 1, maxLength: 8192, description: 'base64 of a PEM RSA public key' }),
          'secret-key': Secret,
          'correlation-id': CorrelationId,
        }),
        response: { 200: Type.Object({ message: Type.String() }), ...oastErrors },
      },
    },
    async (req) => {
      await relayOast(ctx, await asAgent(req), 'register', req.body);
      return { message: 'registration successful' };
    },
  );

  app.post(
    '/v1/agents/me/oast/poll',
    {
      ...agentOnly,
      schema: {
        tags,
        summary: 'Agent: the sealed interactions of one of its interactsh clients (relayed; handed over once)',
        body: Type.Object({ id: CorrelationId, secret: Secret }),
        response: {
          200: Type.Object({
            data: Type.Array(Type.String(), { description: 'interactions, AES-256 sealed for the client' }),
            aes_key: Type.String({ description: "the client's AES key, wrapped with its RSA key (RSA-OAEP, SHA-256)" }),
          }),
          ...oastErrors,
        },
      },
    },
    async (req) => {
      const body = await relayOast(ctx, await asAgent(req), 'poll', req.body);
      const data = Array.isArray(body.data) ? body.data.filter((d): d is string => typeof d === 'string') : [];
      return { data, aes_key: typeof body.aes_key === 'string' ? body.aes_key : '' };
    },
  );

  app.post(
    '/v1/agents/me/oast/deregister',
    {
      ...agentOnly,
      schema: {
        tags,
        summary: 'Agent: drop one of its interactsh clients and its interactions (relayed)',
        body: Type.Object({ 'correlation-id': CorrelationId, 'secret-key': Secret }),
        response: { 200: Type.Object({ message: Type.String() }), ...oastErrors },
      },
    },
    async (req) => {
      await relayOast(ctx, await asAgent(req), 'deregister', req.body);
      return { message: 'deregistration successful' };
    },
  );
};
