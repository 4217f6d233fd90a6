/**
 * Who may do what: the one table both halves read. The server refuses a route whose declared
 * permission the caller's role lacks (server/src/auth/guard.ts); the console hides what the role
 * may not use (src/providers/authProvider.ts `canAccess`). docs/security.md lists every route's
 * permission.
 */

export const ROLES = ['owner', 'manager', 'front_desk', 'content'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** What each permission allows, in the words of the README's matrix. */
export const PERMISSIONS = {
  'clients.read': 'see clients, lists, search, client page',
  'clients.push': 'push to one client, sync contracts, bulk pushes to selected clients',
  'clients.notes': "add notes (and edit or delete one's own) and set tags on clients",
  'segments.edit': "create, change and delete the studio's shared segments",
  'clients.override': 'grant or end an access-level override, favorites changes',
  'messaging.edit': 'edit push templates and automated sending, broadcasts to segments',
  'videos.edit': 'edit videos, run the Vimeo sync',
  'mindbody.import': 'start a Mindbody import',
  'audit.read': 'see and export the audit log',
  'dashboard.read': 'dashboard',
  'staff.manage': 'manage staff and roles',
  // A client's data rights: export, erase, data requests, retention; who looked at a client's data.
  'clients.erase': "export or erase a client's data, data requests, retention settings",
  'clients.looks': "see who looked at a client's data",
  'revenue.read': 'see the Revenue area (MRR, churn, cohorts) and start its backfill',
  // Not a row of the matrix: what every signed-in staff member needs whatever the role.
  signed_in: 'own sessions and password, the API docs, the names of the access levels',
} as const;
export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export const isPermission = (value: unknown): value is Permission => typeof value === 'string' && Object.hasOwn(PERMISSIONS, value);

/** The matrix. Later features add their permission here and declare it on their routes. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSION_NAMES,
  manager: PERMISSION_NAMES.filter((permission) => permission !== 'staff.manage' && permission !== 'clients.looks'),
  front_desk: ['clients.read', 'clients.push', 'clients.notes', 'dashboard.read', 'signed_in'],
  content: ['videos.edit', 'dashboard.read', 'signed_in'],
};

export const roleAllows = (role: Role, permission: Permission): boolean => ROLE_PERMISSIONS[role].includes(permission);

/** How a role reads in texts ('front desk'). */
export const ROLE_LABELS: Record<Role, string> = { owner: 'owner', manager: 'manager', front_desk: 'front desk', content: 'content' };

/** The 403 answer's message: what was missing, and who can help. */
export function permissionDeniedMessage(role: Role, permission: Permission): string {
  return `Your role (${role}) does not allow this: it needs the '${permission}' permission (${PERMISSIONS[permission]}). Ask an owner to change your role.`;
}

/**
 * The console asks `canAccess({ resource, action })` in react-admin's words; this says which
 * permission answers. A resource's '*' covers every action; anything not listed is refused.
 */
export const CONSOLE_ACCESS: Record<string, Record<string, Permission>> = {
  dashboard: { '*': 'dashboard.read' },
  clients: {
    list: 'clients.read',
    show: 'clients.read',
    search: 'clients.read',
    push: 'clients.push',
    sync_contracts: 'clients.push',
    override: 'clients.override',
    favorites: 'clients.override',
    bulk_push: 'clients.push',
    // a push to every client a list's filter selects is a broadcast
    bulk_push_all: 'messaging.edit',
    bulk_override: 'clients.override',
    notes: 'clients.notes',
    export_data: 'clients.erase',
    erase: 'clients.erase',
    looks: 'clients.looks',
  },
  'data-requests': { '*': 'clients.erase' },
  messaging: { '*': 'messaging.edit' },
  videos: { '*': 'videos.edit' },
  'vimeo-syncs': { '*': 'videos.edit' },
  'video-categories': { '*': 'videos.edit' },
  mindbody: { import: 'mindbody.import' },
  overrides: { '*': 'clients.override' },
  audit: { '*': 'audit.read' },
  'audit-staff': { '*': 'audit.read' },
  staff: { '*': 'staff.manage' },
  // Everyone who sees clients opens and uses segments; changing the shared ones is 'segments.edit'.
  segments: { list: 'clients.read', show: 'clients.read', create: 'segments.edit', edit: 'segments.edit', delete: 'segments.edit' },
  revenue: { '*': 'revenue.read' },
  broadcasts: { list: 'clients.read', show: 'clients.read', create: 'messaging.edit', cancel: 'messaging.edit' },
  sessions: { '*': 'signed_in' },
  account: { '*': 'signed_in' },
};

/** The client lists are one resource per list ('clients-all', 'clients-new', …): each reads as 'clients'. */
const resourceFamily = (resource: string) => (resource.startsWith('clients-') ? 'clients' : resource);

export function consolePermission(resource: string, action: string): Permission | undefined {
  const family = resourceFamily(resource);
  const actions = Object.hasOwn(CONSOLE_ACCESS, family) ? CONSOLE_ACCESS[family]! : undefined;
  if (!actions) return undefined;
  return Object.hasOwn(actions, action) ? actions[action] : actions['*'];
}
