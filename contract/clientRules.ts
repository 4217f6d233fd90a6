/**
 * The client rules and limits both halves share, without zod: the console imports these eagerly
 * and should not pull the schema library into its first download.
 */

/** Spec §9: a client is 'New' while its first login is at most this many days old. */
export const NEW_CLIENT_WINDOW_DAYS = 30;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The four client lists of spec §2, by list id. */
export const CLIENT_LISTS = {
  1: 'all',
  2: 'mindbody',
  3: 'active',
  4: 'new',
} as const;
export type ClientListId = keyof typeof CLIENT_LISTS;

/** Placeholders a console may send for an absent value (`String(undefined)` etc.). */
const PLACEHOLDERS = new Set(['', 'null', 'undefined', 'n/a', 'unknown']);

export const isPlaceholder = (value: string | null | undefined) =>
  value == null || PLACEHOLDERS.has(value.trim().toLowerCase());

/**
 * A real MindBody client id is longer than 2 characters (spec §2: shorter ones show 'N/A' and are
 * left out of the MindBody list, whose SQL is `length(mb_client_id) > 2`).
 */
export const hasMindBodyId = (value: string | null | undefined): value is string => value != null && value.length > 2;

export const CLIENT_SORT_FIELDS = [
  '_id',
  'first_name',
  'last_name',
  'email_address',
  'vod_access_level',
  'client_status',
  'first_login',
] as const;
export type ClientSortField = (typeof CLIENT_SORT_FIELDS)[number];

export const MAX_PER_PAGE = 500;
export const DEFAULT_PER_PAGE = 25;
/** Totals up to this many rows are exact; larger lists carry the planner's estimate (exact again on their last page). */
export const EXACT_TOTAL_CAP = 10_000;
/** Without paging parameters a list answers at most this many clients (X-Clients-Truncated says when it cut). */
export const UNPAGED_LIST_CAP = 10_000;

export const RECENT_VIDEOS_LIMIT = 50;

export const MAX_DEBUG_LIMIT = 100;
