// Every API area's routes. Add a line here when an area is built.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { systemRoutes } from './system/routes.ts';
import { teamRoutes } from './team/routes.ts';
import { intelRoutes } from './intel/routes.ts';
import { templateRoutes } from './templates/routes.ts';
import { scanRoutes } from './scans/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { consoleRoutes } from './console/routes.ts';

export const areas: FastifyPluginAsyncTypebox[] = [systemRoutes, authRoutes, teamRoutes, templateRoutes, scanRoutes, intelRoutes, consoleRoutes];
