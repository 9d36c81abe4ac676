// The one permission table every endpoint asks. It follows the spec's role table: Owner has full control,
// Admin manages settings, members, integrations, scans, assets and templates; Member (and the read-only
// Viewer and Guest of the reference) can view scans and results but change nothing.

export const ROLES = ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER', 'GUEST'] as const;
export type Role = (typeof ROLES)[number];

export const ACTIONS = [
  'team:view',
  'team:manage_members',
  'team:manage_settings',
  'team:delete',
  // Let the team's scans run code and javascript templates no trusted key signed: the Owner's call alone.
  'team:trust_unsigned_templates',
  'billing:manage',
  'integrations:manage',
  'scans:view',
  'scans:manage', // create, stop, rescan, delete, schedule, import
  'results:view',
  'results:manage', // finding status, labels, deletes and retests
  'assets:view',
  'assets:manage',
  'templates:view',
  'templates:manage',
  'templates:share', // share a private template by link, change or revoke the link
  'configs:view',
  'configs:manage',
  'intel:view',
  'agents:view',
  'agents:manage', // register and remove agents (vigil agent)
] as const;
export type Action = (typeof ACTIONS)[number];

const READ: Action[] = [
  'team:view',
  'scans:view',
  'results:view',
  'assets:view',
  'templates:view',
  'configs:view',
  'intel:view',
  'agents:view',
];
const ADMIN: Action[] = [
  ...READ,
  'team:manage_members',
  'team:manage_settings',
  'integrations:manage',
  'scans:manage',
  'results:manage',
  'assets:manage',
  'templates:manage',
  'templates:share',
  'configs:manage',
  'agents:manage',
];

const TABLE: Record<Role, ReadonlySet<Action>> = {
  OWNER: new Set<Action>([...ADMIN, 'team:delete', 'team:trust_unsigned_templates', 'billing:manage']),
  ADMIN: new Set<Action>(ADMIN),
  MEMBER: new Set<Action>(READ),
  VIEWER: new Set<Action>(READ),
  GUEST: new Set<Action>(READ),
};

export function can(role: Role, action: Action): boolean {
  return TABLE[role].has(action);
}

/** Accepts any letter case ("admin", "Admin"); returns the canonical upper-case role or undefined. */
export function parseRole(value: string): Role | undefined {
  const upper = value.trim().toUpperCase();
  return (ROLES as readonly string[]).includes(upper) ? (upper as Role) : undefined;
}
