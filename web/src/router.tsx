// Every page and its address; pages load on demand (code-split) so the first page stays small.
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { AppLayout } from './components/AppLayout';
import { SignIn } from './pages/SignIn';
import { NotFound } from './pages/NotFound';
import { ApiFailure } from './api/client';
import { sessionQuery } from './session';
import { assetRoutes } from './pages/assets/routes';

type Search = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
// Ids typed into an address (?finding=123) arrive parsed as numbers.
const id = (v: unknown) => (typeof v === 'number' ? String(v) : str(v));
const num = (v: unknown) => (Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : undefined);

const root = createRootRouteWithContext<{ queryClient: QueryClient }>()({ component: () => <Outlet /> });

const signIn = createRoute({
  getParentRoute: () => root,
  path: '/sign-in',
  component: SignIn,
  validateSearch: (s: Search): { next?: string } => ({ next: str(s.next) }),
});
const invite = createRoute({
  getParentRoute: () => root,
  path: '/invite',
  component: lazyRouteComponent(() => import('./pages/Invite')),
});

// Every page below needs a session: without one, the sign-in page (and back here afterwards).
export const app = createRoute({
  getParentRoute: () => root,
  id: 'app',
  component: AppLayout,
  beforeLoad: async ({ context, location }) => {
    try {
      await context.queryClient.ensureQueryData(sessionQuery);
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 401) {
        throw redirect({ to: '/sign-in', search: { next: location.href === '/' ? undefined : location.href } });
      }
      throw err;
    }
  },
});

const overview = createRoute({
  getParentRoute: () => app,
  path: '/',
  component: lazyRouteComponent(() => import('./pages/Overview')),
});
export const scansRoute = createRoute({
  getParentRoute: () => app,
  path: '/scans',
  component: lazyRouteComponent(() => import('./pages/Scans')),
  validateSearch: (s: Search): { q?: string; status?: string; sort?: string; page?: number } => ({
    q: str(s.q),
    status: str(s.status),
    sort: str(s.sort),
    page: num(s.page),
  }),
});
const newScan = createRoute({
  getParentRoute: () => app,
  path: '/scans/new',
  component: lazyRouteComponent(() => import('./pages/NewScan')),
});
export const scanRoute = createRoute({
  getParentRoute: () => app,
  path: '/scans/$scanId',
  component: lazyRouteComponent(() => import('./pages/ScanDetail')),
  validateSearch: (s: Search): { tab?: string } => ({ tab: str(s.tab) }),
});
export const findingsRoute = createRoute({
  getParentRoute: () => app,
  path: '/findings',
  component: lazyRouteComponent(() => import('./pages/Findings')),
  validateSearch: (
    s: Search,
  ): {
    severity?: string;
    host?: string;
    template?: string;
    tags?: string;
    time?: string;
    q?: string;
    scan?: string;
    status?: string;
    page?: number;
    finding?: string;
  } => ({
    severity: str(s.severity),
    host: str(s.host),
    template: str(s.template),
    tags: str(s.tags),
    time: str(s.time),
    q: str(s.q),
    scan: str(s.scan),
    status: str(s.status),
    page: num(s.page),
    finding: id(s.finding),
  }),
});
export const templatesRoute = createRoute({
  getParentRoute: () => app,
  path: '/templates',
  component: lazyRouteComponent(() => import('./pages/Templates')),
  validateSearch: (s: Search): { q?: string; page?: number; view?: string; tab?: string } => ({
    q: str(s.q),
    page: num(s.page),
    view: str(s.view),
    tab: str(s.tab),
  }),
});
export const templateEditRoute = createRoute({
  getParentRoute: () => app,
  path: '/templates/private/$templateId',
  component: lazyRouteComponent(() => import('./pages/TemplateEditor')),
});
const sharedTemplate = createRoute({
  getParentRoute: () => app,
  path: '/templates/shared',
  component: lazyRouteComponent(() => import('./pages/SharedTemplate')),
});
export const vulnsRoute = createRoute({
  getParentRoute: () => app,
  path: '/vulnerabilities',
  component: lazyRouteComponent(() => import('./pages/Vulnerabilities')),
  validateSearch: (s: Search): { q?: string; page?: number } => ({ q: str(s.q), page: num(s.page) }),
});
// Settings > Configurations and Schedules, and one finding by its id (pages/Configs*.tsx, Schedules.tsx, Finding.tsx).
export const configsRoute = createRoute({
  getParentRoute: () => app,
  path: '/settings/configs',
  component: lazyRouteComponent(() => import('./pages/Configs')),
  validateSearch: (s: Search): { type?: string; q?: string } => ({ type: str(s.type), q: str(s.q) }),
});
export const configRoute = createRoute({
  getParentRoute: () => app,
  path: '/settings/configs/$configId',
  component: lazyRouteComponent(() => import('./pages/ConfigEditor')),
  validateSearch: (s: Search): { type?: string } => ({ type: str(s.type) }),
});
const schedules = createRoute({
  getParentRoute: () => app,
  path: '/settings/schedules',
  component: lazyRouteComponent(() => import('./pages/Schedules')),
});
const agentsPage = createRoute({
  getParentRoute: () => app,
  path: '/settings/agents',
  component: lazyRouteComponent(() => import('./pages/Agents')),
});
export const findingRoute = createRoute({
  getParentRoute: () => app,
  path: '/findings/$findingId',
  component: lazyRouteComponent(() => import('./pages/Finding')),
});
const settings = createRoute({
  getParentRoute: () => app,
  path: '/settings',
  component: lazyRouteComponent(() => import('./pages/Settings')),
});

const routeTree = root.addChildren([
  signIn,
  invite,
  app.addChildren([
    overview,
    scansRoute,
    newScan,
    scanRoute,
    findingsRoute,
    templatesRoute,
    templateEditRoute,
    sharedTemplate,
    vulnsRoute,
    settings,
    configsRoute,
    configRoute,
    schedules,
    agentsPage,
    findingRoute,
    ...assetRoutes,
  ]),
]);

// Unknown addresses: a "Page not found" panel in the layout that fits the session (pages/NotFound.tsx).
export const router = createRouter({
  routeTree,
  context: { queryClient: undefined! },
  defaultPreload: 'intent',
  defaultNotFoundComponent: NotFound,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
