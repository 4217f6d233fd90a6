/** Saved segments' limits, without zod: the sidebar (in the console's first load) lists segments. */
export const SEGMENT_NAME_MAX = 80;
/** Segments a studio keeps: the sidebar lists every one. */
export const MAX_SEGMENTS = 100;

export const AT_RISK_MAX_PER_PAGE = 100;
export const AT_RISK_DEFAULT_PER_PAGE = 25;
/**
 * The at-risk list is paged through its first this many clients (the most valuable); all of it is
 * reached through its `filter` (a broadcast, a bulk action, the client list). A page deeper would
 * walk every rank's window that far.
 */
export const AT_RISK_DEPTH = 10_000;
