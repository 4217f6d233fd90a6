// No zod here: the console reads this before any lazy chunk (keeps zod out of its first download).
/**
 * The server puts the browser's session state into the console's page as JSON in this element:
 * the same answer GET /api/isAuthenticated gives (contract/auth.ts IsAuthenticatedResponse), so a
 * cold load renders without waiting for that round trip. The console uses it for its first check only.
 */
export const SESSION_STATE_ELEMENT_ID = 'studio-session-state';
