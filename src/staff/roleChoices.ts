import { ROLES } from '@contract/permissions';
import { STAFF_STATUSES } from '@contract/staffRules';

/** The four roles and the two statuses as react-admin choices; their words are in en.ts. */
export const roleChoices = ROLES.map((role) => ({ id: role, name: `staff.roles.${role}` }));
export const statusChoices = STAFF_STATUSES.map((status) => ({ id: status, name: `staff.statuses.${status}` }));
