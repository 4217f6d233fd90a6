import type { Role } from '@contract/permissions';

/**
 * The values of a claim, as strings. The exact name first (Auth0's namespaced claims hold dots:
 * 'https://studio.example/roles'), then a dotted path (Keycloak's 'realm_access.roles'). A string
 * is one value; an array gives its strings; anything else, none.
 */
export function claimValues(claims: Record<string, unknown>, name: string): string[] {
  let value: unknown = Object.hasOwn(claims, name) ? claims[name] : undefined;
  if (value === undefined && name.includes('.')) {
    value = name
      .split('.')
      .reduce<unknown>(
        (node, key) => (node && typeof node === 'object' && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined),
        claims,
      );
  }
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** Whether the claim is there at all (then the ID token said it, and userinfo need not be asked). */
export const hasClaim = (claims: Record<string, unknown>, name: string) =>
  Object.hasOwn(claims, name) || (name.includes('.') && claimValues(claims, name).length > 0);

/** The role of the first OIDC_ROLE_MAP entry whose value the person has; null when none matches. */
export function roleFromClaim(values: readonly string[], map: readonly (readonly [string, Role])[]): Role | null {
  const held = new Set(values);
  return map.find(([group]) => held.has(group))?.[1] ?? null;
}
