// Every API area's routes. Add a line here when an area is built.
//
// Areas import each other in one direction only; an area may import those before it in this order:
//   shared < auth < templates < worker < configs < intel < scans < agents < updates < assets < monitor < team < admin
// (system and console, and the top files app, server, start and this one, may import any area). Where a
// lower area needs something of a higher one, the higher one provides it (scans/sources.ts's asset
// inventory) or writes rows the higher one reads (assets' asset_events, read by monitor).
//
// SQL only in stores (store.ts or a *-store.ts of the area; generic statements such as an advisory lock in
// src/db/), and each table is owned by one area's store:
//   auth: users, teams, team_members, api_keys, sessions       team: team_invites, team_audit_log, team_default_members
//   templates: templates, template_changes, template_facet_counts, template_records, template_shares       intel: intel_*       configs: configs
//   shared: platform_secrets (a name/value table: scans' link key, templates' catalogue profiles)
//   scans: scans, scan_* (but scan_schedules, scan_events)       updates: update_runs
//   agents: agents       worker: workers
//   monitor: scan_schedules, enumeration_schedules, scan_events, deliveries, report_tickets, remediation_runs
//   assets: assets, asset_*, enumeration_found
// A store may read (join) tables of areas below it; only the owner writes. Other areas call the owner's
// functions; a lower area that shows a higher one's data gets it from a provider the higher one registers
// (scans/schedule-source.ts, filled by monitor/schedules.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { systemRoutes } from './system/routes.ts';
import { teamRoutes } from './team/routes.ts';
import { intelRoutes } from './intel/routes.ts';
import { templateRoutes } from './templates/routes.ts';
import { scanRoutes } from './scans/routes.ts';
import { findingRoutes } from './scans/finding-routes.ts';
import { agentRoutes } from './agents/routes.ts';
import { exportRoutes } from './scans/export-routes.ts';
import { operationRoutes } from './scans/operation-routes.ts';
import { templateRunRoutes } from './scans/template-run-routes.ts';
import { scheduleRoutes, deliveryRoutes, enumerationScheduleRoutes } from './monitor/routes.ts';
import { configRoutes } from './configs/routes.ts';
import { assetRoutes } from './assets/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { consoleRoutes } from './console/routes.ts';
import { hostedOnlyRoutes } from './system/hosted-only.ts';

// The console's catch-all routes come last, after every API route.
export const areas: FastifyPluginAsyncTypebox[] = [
  systemRoutes,
  authRoutes,
  teamRoutes,
  templateRoutes,
  scheduleRoutes,
  configRoutes,
  deliveryRoutes,
  scanRoutes,
  findingRoutes,
  agentRoutes,
  exportRoutes,
  operationRoutes,
  templateRunRoutes,
  intelRoutes,
  assetRoutes,
  enumerationScheduleRoutes,
  hostedOnlyRoutes,
  consoleRoutes,
];
