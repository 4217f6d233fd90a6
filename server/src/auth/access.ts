import { isPermission, isRole, permissionDeniedMessage, roleAllows, type Permission } from '@contract/permissions';

/** What a route says about who may call it (its `config`). */
export interface RouteAccess {
  public?: boolean;
  permission?: unknown;
}

export type AccessDecision = { allowed: true } | { allowed: false; permission: Permission | null; message: string };

export const NO_PERMISSION_DECLARED = 'This route declares no permission, so it is refused to everyone (default deny).';

/**
 * Whether a signed-in staff member with `role` may call a route. Default deny: a route that names
 * no known permission is refused whatever the role, and so is a role the matrix does not know.
 */
export function decideAccess(route: RouteAccess, role: unknown): AccessDecision {
  if (!isPermission(route.permission)) return { allowed: false, permission: null, message: NO_PERMISSION_DECLARED };
  const permission = route.permission;
  if (!isRole(role))
    return {
      allowed: false,
      permission,
      message: `Your account has no known role, so it may not do anything; it needs the '${permission}' permission. Ask an owner.`,
    };
  return roleAllows(role, permission) ? { allowed: true } : { allowed: false, permission, message: permissionDeniedMessage(role, permission) };
}

/** `METHOD url` of every route that is neither public nor declares exactly one known permission. */
export function undeclaredRoutes(routes: readonly { method: string; url: string; public: boolean; permission: unknown }[]): string[] {
  return routes
    .filter((route) => (route.public ? route.permission !== undefined : !isPermission(route.permission)))
    .map(
      (route) =>
        `${route.method} ${route.url}${route.public ? ' (public and a permission at once)' : route.permission === undefined ? '' : ` (unknown permission '${String(route.permission)}')`}`,
    );
}
