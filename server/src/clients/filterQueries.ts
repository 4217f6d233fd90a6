import { DAY_MS } from '@contract/clientRules';
import { revenueFigureCondition } from '../revenue/clientsBehindQueries';
import { NO_ACCESS_LEVEL, NO_STATUS, newClientCutoff, type ClientFilter } from '@contract/clientFilterRules';

/**
 * The one place a client filter becomes SQL (docs/features.md#client-filters): the client lists,
 * their totals and exports use it, and so can anything else that selects clients by a filter.
 * Each condition is written exactly as an index or the statistics of migrations 0003 and 0040
 * know the expression, so the planner can estimate it (server/src/clients/lists.ts picks the
 * page's plan by that estimate) and serve it from an index.
 */

/** Accumulates the conditions of a WHERE clause (ANDed) and their positional parameters. */
export class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];
  param(value: unknown) {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  toString() {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
  /** The clause with its parameters written in as literals (EXPLAIN takes no parameters). */
  inlined() {
    return this.toString().replace(/\$(\d+)/g, (_, n: string) => sqlLiteral(this.params[Number(n) - 1]));
  }
}

const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** A parameter value as SQL text: strings and arrays quoted, numbers as they are. */
export function sqlLiteral(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => (typeof item === 'number' ? String(item) : `"${String(item).replace(/["\\]/g, (ch) => `\\${ch}`)}"`));
    return quoted(`{${items.join(',')}}`);
  }
  return quoted(String(value));
}

/** Case-folded name and e-mail, as the quick filter's trigram index (migration 0003) holds them. */
export const QUICK_FILTER_EXPR = "lower(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '') || ' ' || coalesce(c.email_address, ''))";
export const STATUS_EXPR = `coalesce(c.client_status, '${NO_STATUS}')`;
export const LEVEL_EXPR = `coalesce(c.vod_access_level, ${NO_ACCESS_LEVEL})`;
export const FIRST_LOGIN_EXPR = "coalesce(c.first_login, '-infinity'::timestamptz)";
/** Length of the Mindbody id, 0 without one: a real id is longer than 2 characters. */
const MINDBODY_ID_LENGTH = 'coalesce(length(c.mb_client_id), 0)';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** SQL: client `c` is snoozed off the at-risk list at `now` (a parameter or literal). */
/**
 * `SELECT <owner id>, client id` for the clients an action or a broadcast is fixed to: the picked ones that
 * exist, or those the filter selects at `now`; with its parameters, to feed an INSERT … SELECT.
 */
export function selectTargetClients(
  ownerId: number,
  target: { clientIds?: number[]; filter?: ClientFilter },
  now: Date,
): { select: string; params: unknown[] } {
  if (target.clientIds) return { select: 'SELECT $1::bigint, c.id FROM clients c WHERE c.id = ANY($2::bigint[])', params: [ownerId, target.clientIds] };
  const where = clientFilterWhere([target.filter ?? {}], now);
  return { select: `SELECT ${where.param(ownerId)}::bigint, c.id FROM clients c ${where}`, params: where.params };
}

export const snoozedAt = (client: string, now: string) =>
  `EXISTS (SELECT 1 FROM client_contacts s WHERE s.client_id = ${client} AND s.kind = 'snoozed' AND s.snoozed_until > ${now})`;

/** Adds the conditions of `filter` at `now` on clients `c` to `where`. */
export function addClientFilter(where: Where, filter: ClientFilter, now: Date): void {
  const q = filter.q?.trim();
  if (q) where.parts.push(`${QUICK_FILTER_EXPR} LIKE ${where.param(`%${escapeLike(q.toLowerCase())}%`)}`);
  if (filter.status) where.parts.push(`${STATUS_EXPR} = ANY(${where.param(filter.status)}::text[])`);
  if (filter.vod_access_level) where.parts.push(`${LEVEL_EXPR} = ANY(${where.param(filter.vod_access_level)}::int[])`);
  if (filter.new !== undefined) {
    where.parts.push(`${FIRST_LOGIN_EXPR} ${filter.new ? '>=' : '<'} ${where.param(newClientCutoff(now).toISOString())}::timestamptz`);
  }
  if (filter.mindbody !== undefined) {
    where.parts.push(`${MINDBODY_ID_LENGTH} ${filter.mindbody ? '>' : '<='} 2`);
  }
  const endsWithin = filter.override_ends_within_days;
  if (filter.override_running !== undefined || endsWithin !== undefined) {
    const nowParam = `${where.param(now.toISOString())}::timestamptz`;
    if (filter.override_running === false) where.parts.push(`(c.admin_updated_expiration IS NULL OR c.admin_updated_expiration <= ${nowParam})`);
    if (filter.override_running === true || endsWithin !== undefined) where.parts.push(`c.admin_updated_expiration > ${nowParam}`);
    if (endsWithin !== undefined) {
      where.parts.push(`c.admin_updated_expiration <= ${where.param(new Date(now.getTime() + endsWithin * DAY_MS).toISOString())}::timestamptz`);
    }
  }
  // Tagged clients, through client_tags' (tag, client_id) index (migration 0052).
  if (filter.tag) where.parts.push(`EXISTS (SELECT 1 FROM client_tags ct WHERE ct.client_id = c.id AND ct.tag = ANY(${where.param(filter.tag)}::text[]))`);
  addActivityFilter(where, filter, now);
  addRevenueFilter(where, filter, now);
}

/** Since when, `days` back from `now`, as a parameter. */
const since = (where: Where, now: Date, days: number) => `${where.param(new Date(now.getTime() - days * DAY_MS).toISOString())}::timestamptz`;
/**
 * A signed-in class or a video view of client `c` after `after`: one row per client in client_activity
 * (migration 0058, kept by triggers on the visits and views), so a window never reads every visit or view in it.
 */
const classSince = (after: string) => `EXISTS (SELECT 1 FROM client_activity a WHERE a.client_id = c.id AND a.last_class_at > ${after})`;
const streamSince = (after: string) => `EXISTS (SELECT 1 FROM client_activity a WHERE a.client_id = c.id AND a.last_stream_at > ${after})`;
/** A token worth pushing to (push/tokens.ts: not a placeholder, not declared dead) on a device record of `c`. */
const USABLE_TOKEN = `EXISTS (SELECT 1 FROM debug_records d CROSS JOIN LATERAL (VALUES (trim(d.firebase_token_new)), (trim(d.firebase_token_current))) t(token)
  WHERE d.client_id = c.id AND d.used_for_push AND t.token IS NOT NULL AND lower(t.token) NOT IN ('', 'null', 'undefined', 'n/a', 'unknown')
    AND NOT EXISTS (SELECT 1 FROM dead_push_tokens x WHERE x.token = t.token))`;

/** The segment filters: activity (classes, streams), the app, the opt-out. */
function addActivityFilter(where: Where, filter: ClientFilter, now: Date): void {
  if (filter.last_class_days !== undefined) where.parts.push(classSince(since(where, now, filter.last_class_days)));
  if (filter.no_class_days !== undefined) where.parts.push(`NOT ${classSince(since(where, now, filter.no_class_days))}`);
  if (filter.last_stream_days !== undefined) where.parts.push(streamSince(since(where, now, filter.last_stream_days)));
  if (filter.no_stream_days !== undefined) where.parts.push(`NOT ${streamSince(since(where, now, filter.no_stream_days))}`);
  if (filter.last_activity_days !== undefined) {
    const after = since(where, now, filter.last_activity_days);
    where.parts.push(`(${classSince(after)} OR ${streamSince(after)})`);
  }
  if (filter.app_installed !== undefined) where.parts.push(filter.app_installed ? USABLE_TOKEN : `NOT ${USABLE_TOKEN}`);
  if (filter.opted_out !== undefined) where.parts.push(`c.automated_messages_opt_out = ${filter.opted_out ? 'true' : 'false'}`);
  if (filter.snoozed !== undefined) {
    const snoozed = snoozedAt('c.id', `${where.param(now.toISOString())}::timestamptz`);
    where.parts.push(filter.snoozed ? snoozed : `NOT ${snoozed}`);
  }
  if (filter.outcome !== undefined) addOutcomeFilter(where, filter.outcome);
}

const OUTCOME_GROUP_SQL: Record<string, string> = {
  clients: 'NOT o.held_out',
  sent: "NOT o.held_out AND o.push_status IN ('sent', 'queued')",
  opened: 'NOT o.held_out AND o.opened_at IS NOT NULL',
  converted: 'NOT o.held_out AND o.converted_at IS NOT NULL',
  held_out: 'o.held_out',
  held_out_converted: 'o.held_out AND o.converted_at IS NOT NULL',
};

/** The clients behind one number of a message's results (message_outcomes, migration 0090). */
function addOutcomeFilter(where: Where, outcome: string): void {
  const parts = outcome.split(':');
  const group = OUTCOME_GROUP_SQL[parts[parts.length - 1]!] ?? 'false';
  const message =
    parts[0] === 'broadcast'
      ? `o.broadcast_id = ${where.param(Number(parts[1]))}::bigint`
      : `o.message_type = ${where.param(Number(parts[1]))}::int AND o.week = ${where.param(parts[2])}::date`;
  where.parts.push(`EXISTS (SELECT 1 FROM message_outcomes o WHERE o.client_id = c.id AND ${message} AND ${group})`);
}

/** The clients behind a Revenue figure (server/src/revenue/clientsBehindQueries.ts). */
function addRevenueFilter(where: Where, filter: ClientFilter, now: Date): void {
  if (filter.revenue_figure === undefined && filter.revenue_from === undefined && filter.revenue_to === undefined) return;
  where.parts.push(revenueFigureCondition(filter, (value) => where.param(value), now));
}

/** The WHERE clause of several filters together (a list's own rule and the caller's filter). */
export function clientFilterWhere(filters: ClientFilter[], now: Date): Where {
  const where = new Where();
  for (const filter of filters) addClientFilter(where, filter, now);
  return where;
}
