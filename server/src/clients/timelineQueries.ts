import { z } from 'zod';
import { timestamp } from '../db/rows';
import { TIMELINE_KINDS, type TimelineKind } from '@contract/timeline';
import type { Queryable } from '../db/client';
import { afterCursorCondition, type TimelineCursor } from './timelineRules';

/**
 * The client's timeline as SQL: one feed from the tables that already record what happened, each
 * source read through its (client_id, time DESC) index, at most a page of it, and the pages merged.
 */

export interface Source {
  /** Orders entries of the same instant; part of the cursor. */
  src: number;
  kind: TimelineKind;
  /** Its time and id columns, as the condition and the ORDER BY name them. */
  at: string;
  id: string;
  /** SELECT … (without ORDER BY/LIMIT): columns at, id, event, title, detail, by, until; `where` is added to its WHERE ($1 the client). */
  select: (where: string) => string;
}

const OVERRIDE_ACTIONS = `('client.override_grant', 'client.override_extend', 'client.override_end')`;

export const TIMELINE_SOURCES: Source[] = [
  {
    src: 1,
    kind: 'visit',
    at: 'v.start_at',
    id: 'v.id',
    select: (where) => `SELECT v.start_at AS at, v.id,
        CASE WHEN v.signed_in THEN 'visit.signed_in' WHEN v.late_cancelled THEN 'visit.late_cancelled' WHEN v.missed THEN 'visit.missed' ELSE 'visit.booked' END AS event,
        coalesce(v.class_name, '') AS title, NULL::text AS detail, NULL::text AS by, NULL::timestamptz AS until
      FROM mindbody_visits v WHERE v.client_id = $1 AND ${where}`,
  },
  {
    src: 2,
    kind: 'stream',
    at: 'w.viewed_at',
    id: 'w.id',
    select: (
      where,
    ) => `SELECT w.viewed_at AS at, w.id, 'stream.played' AS event, coalesce(vd.title, '') AS title, NULL::text AS detail, NULL::text AS by, NULL::timestamptz AS until
      FROM video_views w LEFT JOIN videos vd ON vd.id = w.video_id WHERE w.client_id = $1 AND ${where}`,
  },
  {
    src: 3,
    kind: 'purchase',
    at: 'p.purchased_at',
    id: 'p.id',
    select: (where) => `SELECT p.purchased_at AS at, p.id, 'purchase.purchased' AS event,
        coalesce(pl.name, p.subscription_identifier, '') AS title, p.subscription_status AS detail, NULL::text AS by, NULL::timestamptz AS until
      FROM purchases p LEFT JOIN access_levels pl ON pl.id = p.access_level_id
      WHERE p.client_id = $1 AND p.purchased_at IS NOT NULL AND ${where}`,
  },
  {
    // The purchase itself is the purchases row above; the events after it come from RevenueCat.
    src: 4,
    kind: 'purchase',
    at: 'r.event_at',
    id: 'r.id',
    select: (where) => `SELECT r.event_at AS at, r.id, r.type AS event, coalesce(r.body->'event'->>'product_id', '') AS title,
        coalesce(r.body->'event'->>'cancel_reason', r.body->'event'->>'expiration_reason') AS detail, NULL::text AS by, NULL::timestamptz AS until
      FROM revenuecat_events r WHERE r.client_id = $1 AND r.event_at IS NOT NULL AND r.type NOT IN ('INITIAL_PURCHASE', 'TEST') AND ${where}`,
  },
  {
    src: 5,
    kind: 'override',
    at: 'a.at',
    id: 'a.id',
    select: (where) => `SELECT a.at, a.id,
        CASE a.action WHEN 'client.override_grant' THEN 'override.granted' WHEN 'client.override_extend' THEN 'override.extended'
             ELSE CASE WHEN a.staff_email IS NULL THEN 'override.expired' ELSE 'override.ended' END END AS event,
        coalesce(ol.name, a.after->>'vod_access_level', '') AS title,
        a.after->>'reason' AS detail, a.staff_email AS by, (a.after->>'admin_updated_expiration')::timestamptz AS until
      FROM audit_log a LEFT JOIN access_levels ol ON ol.sort_order::text = a.after->>'vod_access_level'
      WHERE a.client_id = $1 AND a.action IN ${OVERRIDE_ACTIONS} AND ${where}`,
  },
  {
    src: 6,
    kind: 'push',
    at: 'u.created_at',
    id: 'u.id',
    select: (where) => `SELECT u.created_at AS at, u.id,
        CASE WHEN u.sent_by = 'automated' THEN 'push.automated' WHEN u.source = 'broadcast' THEN 'push.broadcast' ELSE 'push.staff' END AS event,
        u.title, u.body AS detail, CASE WHEN u.sent_by = 'automated' THEN NULL ELSE u.sent_by END AS by, NULL::timestamptz AS until
      FROM pushes u WHERE u.client_id = $1 AND ${where}`,
  },
  {
    src: 9,
    kind: 'push',
    at: 'u.opened_at',
    id: 'u.id',
    select: (where) => `SELECT u.opened_at AS at, u.id, 'push.opened' AS event, u.title, u.body AS detail, NULL::text AS by, NULL::timestamptz AS until
      FROM pushes u WHERE u.client_id = $1 AND u.opened_at IS NOT NULL AND ${where}`,
  },
  {
    // Kept out of a message to measure its lift: nothing was sent.
    src: 10,
    kind: 'push',
    at: 'o.sent_at',
    id: 'o.id',
    select: (where) => `SELECT o.sent_at AS at, o.id, 'push.held_out' AS event,
        coalesce(nullif(b.title, ''), b.body, mt.title, '') AS title, NULL::text AS detail, NULL::text AS by, NULL::timestamptz AS until
      FROM message_outcomes o LEFT JOIN broadcasts b ON b.id = o.broadcast_id LEFT JOIN message_types mt ON mt.id = o.message_type
      WHERE o.client_id = $1 AND o.held_out AND ${where}`,
  },
  {
    src: 7,
    kind: 'contract_sync',
    at: 's.at',
    id: 's.id',
    select: (where) => `SELECT s.at, s.id,
        CASE WHEN s.after->>'outcome' = 'failed' THEN 'contract_sync.failed' ELSE 'contract_sync.stored' END AS event,
        coalesce(s.after->>'contracts', '') AS title, s.after->'errors'->>0 AS detail, s.staff_email AS by, NULL::timestamptz AS until
      FROM audit_log s WHERE s.client_id = $1 AND s.action = 'client.contracts_sync' AND ${where}`,
  },
  {
    src: 8,
    kind: 'note',
    at: 'n.created_at',
    id: 'n.id',
    select: (where) => `SELECT n.created_at AS at, n.id, 'note.added' AS event, '' AS title, n.body AS detail, n.author_email AS by, NULL::timestamptz AS until
      FROM client_notes n WHERE n.client_id = $1 AND ${where}`,
  },
  {
    src: 11,
    kind: 'contact',
    at: 'k.created_at',
    id: 'k.id',
    select: (where) => `SELECT k.created_at AS at, k.id, 'contact.' || k.kind AS event,
        '' AS title, k.note AS detail, k.staff_email AS by, k.snoozed_until AS until
      FROM client_contacts k WHERE k.client_id = $1 AND ${where}`,
  },
];

const TimelineRow = z.object({
  cursor_at: z.string(),
  src: z.number(),
  id: z.number(),
  kind: z.enum(TIMELINE_KINDS),
  event: z.string(),
  title: z.string().nullable(),
  detail: z.string().nullable(),
  by: z.string().nullable(),
  until: timestamp.nullable(),
});
export type TimelineRow = z.infer<typeof TimelineRow>;

/**
 * One page (and one row more) of the chosen sources after the cursor, newest first. `params` holds
 * $1 the client, $2 now, and $3 and $4 only when the cursor uses them.
 */
export async function timelineRows(
  database: Queryable,
  page: { sources: Source[]; cursor: TimelineCursor | null; limit: number; params: unknown[] },
): Promise<TimelineRow[]> {
  const { cursor, limit, params } = page;
  const parts = page.sources.map((source) => {
    // Nothing dated after now (a class booked for tomorrow has not happened yet).
    const where = `${source.at} <= $2 AND ${afterCursorCondition(source.src, cursor, source.at, source.id, { at: '$3::timestamptz', id: '$4::bigint' })}`;
    return `(SELECT ${source.src} AS src, '${source.kind}' AS kind, t.* FROM (${source.select(where)} ORDER BY ${source.at} DESC, ${source.id} DESC LIMIT ${limit + 1}) t)`;
  });
  return database.rows(
    TimelineRow,
    `SELECT to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at, e.src, e.id, e.kind, e.event, e.title, e.detail, e.by, e.until
     FROM (${parts.join(' UNION ALL ')}) e
     ORDER BY e.at DESC, e.src DESC, e.id DESC LIMIT ${limit + 1}`,
    params,
  );
}
