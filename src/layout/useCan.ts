import { useCanAccess } from 'react-admin';

/**
 * Whether the signed-in staff member's role lets them use this (authProvider.canAccess with
 * react-admin's resource and action words; contract/permissions.ts maps them). False until known,
 * so nothing a role may not use flashes into view.
 */
export const useCan = (resource: string, action: string): boolean => useCanAccess({ resource, action }).canAccess === true;
