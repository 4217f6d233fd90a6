/** Staff accounts' statuses and password floor, without zod (the console's user menu is in its first load). */
export const STAFF_STATUSES = ['active', 'disabled'] as const;
/** Passwords staff choose; generated ones are longer. Same floor as STAFF_PASSWORD and npm run staff. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;
