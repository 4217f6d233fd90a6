/**
 * What the public app endpoints may make the server keep (docs/security-app.md). Anyone holding the shared
 * app key can post, so every kind of row they create has a ceiling; docs/security-app.md lists
 * these numbers for studios.
 */

/** Reports for e-mails no client has yet (kept so an import can attach them): all of them together. */
export const HOLDING_MAX_ROWS = 1000;
/** Held reports that came from one address (the request's, not the one the body claims). */
export const HOLDING_MAX_PER_ADDRESS = 20;
/** Held reports for one unknown e-mail (or Mindbody id): a real app sends a few before its client is imported. */
export const HOLDING_MAX_PER_EMAIL = 5;
/** A held report older than this is dropped: Mindbody imports run hourly, so the client had its chance. */
export const HOLDING_MAX_AGE_MS = 7 * 24 * 60 * 60_000;
/** A known client's reports; the oldest go first, except those that hold a device slot. */
export const CLIENT_HISTORY_MAX = 100;
