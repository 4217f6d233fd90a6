/**
 * The client filter without zod (the console imports these eagerly): what a client list, its CSV
 * export and a saved segment select clients by. The server turns it into SQL in one place
 * (server/src/clients/clientFilter.ts); `matchesClientFilter` is the same rule for a list the
 * browser pages itself.
 */
import type { RevenueFigure } from './revenueRules';
import { DAY_MS, NEW_CLIENT_WINDOW_DAYS, hasMindBodyId } from './clientRules';

/** Mindbody's documented statuses, 'Inactive' (older sites) and ours for a client without one. */
export const CLIENT_STATUSES = ['Active', 'Inactive', 'Non-Member', 'Expired', 'Suspended', 'Terminated', 'Declined', 'Pending'] as const;
/** The status of a client with none: what lists show and what a status filter matches them by. */
export const NO_STATUS = 'Pending';
/** The sort_order of the spec's access levels (VOD | FREE, BASIC, PREMIUM), the values the console offers. */
export const ACCESS_LEVEL_SORT_ORDERS = [1, 2, 3] as const;
/** The access level filter's value for a client without a level. */
export const NO_ACCESS_LEVEL = 0;
export const MAX_FILTER_VALUES = 20;
export const MAX_STATUS_LENGTH = 60;
export const QUICK_FILTER_MAX = 100;
/** The activity filters (last_class_days, no_stream_days, …) look back at most this many days. */
export const MAX_ACTIVITY_DAYS = 3650;
/** The filter keys about activity and the app, which only the server can evaluate (segments). */
export const SERVER_ONLY_FILTER_KEYS = [
  'last_class_days',
  'no_class_days',
  'last_stream_days',
  'no_stream_days',
  'last_activity_days',
  'app_installed',
  'opted_out',
  'outcome',
  'revenue_figure',
  'revenue_from',
  'revenue_to',
  'snoozed',
] as const;

export interface ClientFilter {
  /** The clients behind one number of a message's results (contract/outcomeRules.ts OUTCOME_FILTER). */
  outcome?: string;
  /** Part of the first name, last name or e-mail, case-insensitive. */
  q?: string;
  /** Any of these statuses ('Pending' = none). */
  status?: string[];
  /** Any of these levels (sort_order; 0 = none). */
  vod_access_level?: number[];
  /** First login within the last 30 days (true) or not (false: earlier, or never). */
  new?: boolean;
  /** Linked to Mindbody: a Mindbody id longer than 2 characters (true) or not (false). */
  mindbody?: boolean;
  /** An admin override of the access level is running now (true) or not (false). */
  override_running?: boolean;
  /** An override is running and ends within this many days (1-28). */
  override_ends_within_days?: number;
  /** Carries any of these tags (normalized as contract/notes.ts does). */
  tag?: string[];
  /** A signed-in class (Mindbody visit) within the last N days. */
  last_class_days?: number;
  /** No signed-in class within the last N days. */
  no_class_days?: number;
  /** A video view (stream) within the last N days. */
  last_stream_days?: number;
  /** No video view within the last N days. */
  no_stream_days?: number;
  /** A signed-in class or a stream within the last N days. */
  last_activity_days?: number;
  /** The app reported a usable device token (true) or not (false). */
  app_installed?: boolean;
  /** Opted out of automated messages (true) or not (false). */
  opted_out?: boolean;
  /** The clients behind a Revenue figure (contract/revenue.ts REVENUE_FIGURES), with its range. */
  revenue_figure?: RevenueFigure;
  /** The figure's start (a day or an instant), its moment for paying/trialing, its cohort month for cohorts. */
  revenue_from?: string;
  /** The figure's end, excluded (a day or an instant); the month after the cohort for cohorts. */
  revenue_to?: string;
  /** Snoozed off the at-risk list now (true) or not (false). */
  snoozed?: boolean;
}

/** First logins at or after this moment are 'New' (the window includes its first instant). */
export const newClientCutoff = (now: Date) => new Date(now.getTime() - NEW_CLIENT_WINDOW_DAYS * DAY_MS);

/** The rule each of the four lists adds to any filter, written as a filter. */
export const LIST_RULES: Record<1 | 2 | 3 | 4, ClientFilter> = {
  1: {},
  2: { mindbody: true },
  3: { status: ['Active'] },
  4: { new: true },
};

/** The fields of a client the filter reads. */
export interface FilterableClient {
  first_name: string | null;
  last_name: string | null;
  email_address: string | null;
  mb_client_id: string | null;
  vod_access_level: number | null;
  client_status: string | null;
  first_login: string | null;
  admin_updated_expiration: string | null;
  /** The client's tags, when known (a list row does not carry them). */
  tags?: string[] | null;
}

const time = (value: string | null) => (value ? Date.parse(value) : Number.NaN);

/** Whether a client passes every part of the filter at `now` (the server's SQL says the same). */
export function matchesClientFilter(client: FilterableClient, filter: ClientFilter, now: Date): boolean {
  const q = filter.q?.trim().toLowerCase();
  if (q && !`${client.first_name ?? ''} ${client.last_name ?? ''} ${client.email_address ?? ''}`.toLowerCase().includes(q)) return false;
  if (filter.status && !filter.status.includes(client.client_status ?? NO_STATUS)) return false;
  if (filter.vod_access_level && !filter.vod_access_level.includes(client.vod_access_level ?? NO_ACCESS_LEVEL)) return false;
  if (filter.new !== undefined) {
    const isNew = time(client.first_login) >= newClientCutoff(now).getTime();
    if (isNew !== filter.new) return false;
  }
  if (filter.mindbody !== undefined && hasMindBodyId(client.mb_client_id) !== filter.mindbody) return false;
  const overrideEnd = time(client.admin_updated_expiration);
  if (filter.override_running !== undefined && overrideEnd > now.getTime() !== filter.override_running) return false;
  if (filter.override_ends_within_days !== undefined) {
    const until = now.getTime() + filter.override_ends_within_days * DAY_MS;
    if (!(overrideEnd > now.getTime() && overrideEnd <= until)) return false;
  }
  if (filter.tag && !(client.tags ?? []).some((tag) => filter.tag!.includes(tag))) return false;
  // The activity and app filters (SERVER_ONLY_FILTER_KEYS) read tables the browser does not have: not checked here.
  return true;
}
