// Every API area's routes. Add a line here when an area is built.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { systemRoutes } from './system/routes.ts';
import { teamRoutes } from './team/routes.ts';
import { intelRoutes } from './intel/routes.ts';
import { templateRoutes } from './templates/routes.ts';
import { scanRoutes } from './scans/routes.ts';
import { monitorRoutes } from './monitor/routes.ts';
import { assetRoutes } from './assets/routes.ts';

export const areas: FastifyPluginAsyncTypebox[] = [systemRoutes, teamRoutes, templateRoutes, monitorRoutes, scanRoutes, intelRoutes, assetRoutes];
