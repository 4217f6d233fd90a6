/**
 * The client rules and limits both halves share, without zod: the console imports these eagerly
 * and should not pull the schema library into its first download.
 */

/** A client is 'New' while its first login is at most this many days old. */
export const NEW_CLIENT_WINDOW_DAYS = 30;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The four client lists of the spec (clientLists.ts). */
export * from './clientLists';

/** Placeholders a console may send for an absent value (`String(undefined)` etc.). */
const PLACEHOLDERS = new Set(['', 'null', 'undefined', 'n/a', 'unknown']);

export const isPlaceholder = (value: string | null | undefined) => value == null || PLACEHOLDERS.has(value.trim().toLowerCase());

/**
 * A real MindBody client id is longer than 2 characters (shorter ones show 'N/A' and are
 * left out of the MindBody list, whose SQL is `length(mb_client_id) > 2`).
 */
export const hasMindBodyId = (value: string | null | undefined): value is string => value != null && value.length > 2;

export const CLIENT_SORT_FIELDS = ['_id', 'first_name', 'last_name', 'email_address', 'vod_access_level', 'client_status', 'first_login'] as const;
export type ClientSortField = (typeof CLIENT_SORT_FIELDS)[number];

export const MAX_PER_PAGE = 500;
export const DEFAULT_PER_PAGE = 25;
/** Totals up to this many rows are exact; larger lists carry the planner's estimate (exact again on their last page). */
export const EXACT_TOTAL_CAP = 10_000;
/**
 * A list (with its filters) of at most this many clients is paged by number, every page of it; a
 * larger one by cursor from its first page (its last pages are the first ones of the other order).
 */
export const NUMBERED_LIST_MAX = EXACT_TOTAL_CAP;
/** An export of a list of more clients than this needs a recent re-authentication (403 reauth_required otherwise). */
export const EXPORT_WITHOUT_REAUTH_MAX = 1_000;
/** Without paging parameters a list answers at most this many clients (X-Clients-Truncated says when it cut). */
export const UNPAGED_LIST_CAP = 10_000;

export const RECENT_VIDEOS_LIMIT = 50;

export const MAX_DEBUG_LIMIT = 100;

/** The spec's 'Override for': days an admin-granted access level lasts. */
export const OVERRIDE_DAYS = [1, 7, 14, 21, 28] as const;
export type OverrideDays = (typeof OVERRIDE_DAYS)[number];
export const MAX_OVERRIDE_DAYS = 28;
/** Slack for a console clock a little ahead of the server's when it computed the end date. */
export const OVERRIDE_CLOCK_SLACK_MS = 60 * 60 * 1000;

/** The override ends that many days from now (1 day = 24 hours). */
export const overrideEnd = (days: number, now: Date) => new Date(now.getTime() + days * DAY_MS);

/** A custom end date may lie up to OVERRIDE_MAX_DAYS ahead (server config); its default and bounds. */
export const OVERRIDE_MAX_DAYS_DEFAULT = 365;
export const OVERRIDE_MAX_DAYS_LIMIT = 3650;
/** The optional reason staff give with a grant (stored in the audit entry and the override history). */
export const OVERRIDE_REASON_MAX = 500;

/**
 * Why an override end date cannot be accepted, or null when it can (server and console agree).
 * `maxDays`: the server's OVERRIDE_MAX_DAYS (the spec's choices go up to 28).
 */
export function overrideEndProblem(end: Date, now: Date, maxDays: number = MAX_OVERRIDE_DAYS): string | null {
  if (Number.isNaN(end.getTime())) return 'adminOverrideDate must be an ISO 8601 date and time';
  if (end.getTime() <= now.getTime()) return 'adminOverrideDate must be in the future';
  if (end.getTime() > now.getTime() + maxDays * DAY_MS + OVERRIDE_CLOCK_SLACK_MS) {
    return `adminOverrideDate must be at most ${maxDays} days ahead`;
  }
  return null;
}

/** The category id favorites are stored under. */
export const FAVORITES_CATEGORY_ID = 30;
/** FCM's notification limits leave room for these (4096 bytes in all). */
export const PUSH_TITLE_MAX = 100;
export const PUSH_BODY_MAX = 1000;
