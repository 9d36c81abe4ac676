// The assets pages and their addresses (kept apart from router.tsx; each page loads on demand).
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { app as appRoute } from '../../router';

type Search = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const num = (v: unknown) => (Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : undefined);
const flag = (v: unknown) => (v === true || v === 'true' ? true : undefined);

export const enumerationsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/assets',
  component: lazyRouteComponent(() => import('./Enumerations')),
  validateSearch: (s: Search): { q?: string; status?: string; page?: number } => ({
    q: str(s.q),
    status: str(s.status),
    page: num(s.page),
  }),
});
export const newEnumerationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/assets/new',
  component: lazyRouteComponent(() => import('./NewEnumeration')),
});
/** Filters of an asset list (an enumeration's assets, the inventory) as they live in the URL. */
export interface AssetListSearch {
  q?: string;
  tech?: string;
  labels?: string;
  only_new?: boolean;
  only_dns?: boolean;
  page?: number;
  asset?: number;
}
const assetListSearch = (s: Search): AssetListSearch => ({
  q: str(s.q),
  tech: str(s.tech),
  labels: str(s.labels),
  only_new: flag(s.only_new),
  only_dns: flag(s.only_dns),
  page: num(s.page),
  asset: num(s.asset),
});
export const inventoryRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/assets/inventory',
  component: lazyRouteComponent(() => import('./Inventory')),
  validateSearch: assetListSearch,
});
export const enumerationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/assets/$enumerationId',
  component: lazyRouteComponent(() => import('./EnumerationDetail')),
  validateSearch: (s: Search): AssetListSearch & { tab?: string; run?: number; change?: string } => ({
    ...assetListSearch(s),
    tab: str(s.tab),
    run: num(s.run),
    change: str(s.change),
  }),
});
export const policiesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/assets/policies',
  component: lazyRouteComponent(() => import('./Policies')),
  validateSearch: (s: Search): { page?: number } => ({ page: num(s.page) }),
});
export const newPolicyRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/assets/policies/new',
  component: lazyRouteComponent(() => import('./NewPolicy')),
});
export const policyRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/assets/policies/$policyId',
  component: lazyRouteComponent(() => import('./PolicyDetail')),
  validateSearch: (s: Search): { page?: number } => ({ page: num(s.page) }),
});

export const groupsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/assets/groups',
  component: lazyRouteComponent(() => import('./Groups')),
});

export const assetRoutes = [
  enumerationsRoute,
  newEnumerationRoute,
  inventoryRoute,
  enumerationRoute,
  policiesRoute,
  newPolicyRoute,
  policyRoute,
  groupsRoute,
] as const;
