import { z } from 'zod';
import { timestamp } from '../db/rows';
import {
  Contract as ContractShape,
  DebugRecord as DebugRecordShape,
  OptionVideo,
  Purchase as PurchaseShape,
  RECENT_VIDEOS_LIMIT,
  type AutopayEvent,
  type Contract,
  type DebugRecord,
  type Purchase,
  type RecentlyViewedVideo,
} from '@contract/clients';
import { UPCOMING_CLASSES_SHOWN } from '@contract/glance';
import type { Queryable } from '../db/client';
import { isoOrNull } from './rows';

/** The client-details sections, each one index range scan on the client's id. */

const ViewedRow = z.object({ vimeo_video_title: z.string(), viewed_at: timestamp });
const PurchaseRow = PurchaseShape.extend({ purchased_at: timestamp.nullable(), expires_at: timestamp.nullable() });
const DebugRow = DebugRecordShape.extend({ sent_at: timestamp.nullable() });

export async function recentlyViewedVideos(database: Queryable, clientId: number): Promise<RecentlyViewedVideo[]> {
  const rows = await database.rows(
    ViewedRow,
    `SELECT v.title AS vimeo_video_title, vv.viewed_at
     FROM video_views vv JOIN videos v ON v.id = vv.video_id
     WHERE vv.client_id = $1
     ORDER BY vv.viewed_at DESC, vv.id DESC
     LIMIT ${RECENT_VIDEOS_LIMIT}`,
    [clientId],
  );
  return rows.map((row) => ({ vimeo_video_title: row.vimeo_video_title, viewed_at: isoOrNull(row.viewed_at)! }));
}

export async function favoriteVideos(database: Queryable, clientId: number): Promise<OptionVideo[]> {
  return database.rows(
    OptionVideo,
    `SELECT v.vimeo_video_id, v.title, v.instructor, v.duration
     FROM favorites f JOIN videos v ON v.id = f.video_id
     WHERE f.client_id = $1 AND v.deleted_at IS NULL
     ORDER BY f.created_at DESC, v.title`,
    [clientId],
  );
}

export async function purchases(database: Queryable, clientId: number): Promise<Purchase[]> {
  const rows = await database.rows(
    PurchaseRow,
    `SELECT p.revenue_cat_user_id, al.name, p.subscription_identifier, p.upsell_source,
            p.purchased_at, p.expires_at, p.subscription_status, p.rc_environment AS environment
     FROM purchases p LEFT JOIN access_levels al ON al.id = p.access_level_id
     WHERE p.client_id = $1
     ORDER BY p.purchased_at DESC NULLS LAST, p.id DESC`,
    [clientId],
  );
  return rows.map((row) => ({ ...row, purchased_at: isoOrNull(row.purchased_at), expires_at: isoOrNull(row.expires_at) }));
}

export async function debugRecords(database: Queryable, clientId: number, page: number, limit: number): Promise<DebugRecord[]> {
  const rows = await database.rows(
    DebugRow,
    `SELECT email, mb_client_id, app_access_level, firebase_token_new, firebase_token_current, platform,
            platform_version, is_ipad, screen_width, screen_height, device_width, device_height, ip,
            app_version, sent_at, device_constants, network_info
     FROM debug_records
     WHERE client_id = $1
     ORDER BY created_at DESC, sent_at DESC NULLS LAST, id DESC
     LIMIT $2 OFFSET $3`,
    [clientId, limit, (page - 1) * limit],
  );
  return rows.map((row) => ({ ...row, sent_at: isoOrNull(row.sent_at) }));
}

const ContractRow = ContractShape.extend({
  agreement_date: timestamp.nullable(),
  start_date: timestamp.nullable(),
  end_date: timestamp.nullable(),
  termination_date: timestamp.nullable(),
  upcoming_autopay_events: z.unknown(),
});

/** Stored MindBody events carry more fields (PaymentMethod, ...); the console needs these two, by date. */
export function autopayEvents(stored: unknown): AutopayEvent[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .filter((event): event is Record<string, unknown> => typeof event === 'object' && event !== null)
    .map((event) => ({ ChargeAmount: Number(event.ChargeAmount ?? 0), ScheduleDate: String(event.ScheduleDate ?? '') }))
    .filter((event) => Number.isFinite(event.ChargeAmount) && event.ScheduleDate !== '')
    .sort((a, b) => a.ScheduleDate.localeCompare(b.ScheduleDate));
}

export async function contracts(database: Queryable, clientId: number): Promise<Contract[]> {
  const rows = await database.rows(
    ContractRow,
    `SELECT agreement_date, autopay_status, contract_name, end_date, id, original_location_id, start_date, site_id,
            upcoming_autopay_events, contract_id, termination_date
     FROM contracts
     WHERE client_id = $1
     ORDER BY start_date DESC NULLS LAST, id DESC`,
    [clientId],
  );
  return rows.map((row) => ({
    agreement_date: isoOrNull(row.agreement_date),
    autopay_status: row.autopay_status,
    contract_name: row.contract_name,
    end_date: isoOrNull(row.end_date),
    id: row.id,
    original_location_id: row.original_location_id,
    start_date: isoOrNull(row.start_date),
    site_id: row.site_id,
    upcoming_autopay_events: autopayEvents(row.upcoming_autopay_events),
    contract_id: row.contract_id,
    termination_date: isoOrNull(row.termination_date),
  }));
}

const GlanceRow = z.object({
  member_since: timestamp.nullable(),
  class_at: timestamp.nullable(),
  class_name: z.string().nullable(),
  stream_at: timestamp.nullable(),
  stream_title: z.string().nullable(),
  level_name: z.string().nullable(),
  // json_build_object: its timestamps are text.
  plan: z
    .object({
      name: z.string().nullable(),
      product: z.string().nullable(),
      status: z.string().nullable(),
      expires_at: z.string().nullable(),
      access_ends_at: z.string().nullable(),
    })
    .nullable(),
  override_ends_at: timestamp.nullable(),
  lifetime_purchases: z.number(),
  devices: z.array(z.object({ platform: z.string().nullable(), is_ipad: z.boolean().nullable() })).nullable(),
  push_reachable: z.boolean(),
  mindbody_status: z.string(),
  mb_client_id: z.string().nullable(),
  phone: z.string().nullable(),
  visits_total: z.number(),
  visits_30d: z.number(),
  /** numeric: text from both drivers. */
  total_spent: z.string().nullable(),
  last_app_open: timestamp.nullable(),
  upcoming: z.array(z.object({ at: z.string(), name: z.string().nullable() })).nullable(),
});

/**
 * The client "at a glance": one statement of scalar subqueries, each served by the client's
 * (client_id, time DESC) index of its table. Undefined for no such client.
 */
export async function glanceRow(database: Queryable, clientId: number, now: Date): Promise<z.infer<typeof GlanceRow> | undefined> {
  const [row] = await database.rows(
    GlanceRow,
    `SELECT coalesce(c.first_login, c.created_at) AS member_since,
       v.start_at AS class_at, v.class_name,
       w.viewed_at AS stream_at, w.title AS stream_title,
       (SELECT al.name FROM access_levels al WHERE al.sort_order = c.vod_access_level) AS level_name,
       (SELECT json_build_object('name', pl.name, 'product', p.subscription_identifier, 'status', p.subscription_status,
                                 'expires_at', p.expires_at, 'access_ends_at', p.access_ends_at)
          FROM purchases p LEFT JOIN access_levels pl ON pl.id = p.access_level_id
          WHERE p.client_id = c.id AND p.grants_access AND coalesce(p.purchased_at, '-infinity') <= $2
            AND coalesce(p.access_ends_at, 'infinity') > $2
          ORDER BY p.purchased_at DESC NULLS LAST, p.id DESC LIMIT 1) AS plan,
       CASE WHEN c.admin_updated_expiration > $2 THEN c.admin_updated_expiration END AS override_ends_at,
       (SELECT count(*)::int FROM purchases p WHERE p.client_id = c.id) AS lifetime_purchases,
       (SELECT json_agg(DISTINCT jsonb_build_object('platform', d.platform, 'is_ipad', d.is_ipad)) FROM debug_records d WHERE d.client_id = c.id) AS devices,
       EXISTS (SELECT 1 FROM debug_records d CROSS JOIN LATERAL (VALUES (d.firebase_token_new), (d.firebase_token_current)) t(token)
               WHERE d.client_id = c.id AND d.used_for_push AND coalesce(t.token, '') <> ''
                 AND NOT EXISTS (SELECT 1 FROM dead_push_tokens x WHERE x.token = t.token)) AS push_reachable,
       coalesce(c.client_status, 'Pending') AS mindbody_status, c.mb_client_id, c.phone,
       (SELECT count(*)::int FROM mindbody_visits x WHERE x.client_id = c.id AND x.signed_in AND x.start_at <= $2) AS visits_total,
       (SELECT count(*)::int FROM mindbody_visits x WHERE x.client_id = c.id AND x.signed_in AND x.start_at <= $2
          AND x.start_at > $2::timestamptz - interval '30 days') AS visits_30d,
       (SELECT sum((r.body->'event'->>'price')::numeric) FROM revenuecat_events r
          WHERE r.client_id = c.id AND upper(coalesce(r.environment, '')) <> 'SANDBOX'
            AND jsonb_typeof(r.body->'event'->'price') = 'number') AS total_spent,
       greatest((SELECT max(coalesce(d.sent_at, d.created_at)) FROM debug_records d WHERE d.client_id = c.id AND coalesce(d.sent_at, d.created_at) <= $2),
                w.viewed_at) AS last_app_open,
       (SELECT json_agg(json_build_object('at', u.start_at, 'name', u.class_name) ORDER BY u.start_at, u.id)
          FROM (SELECT start_at, class_name, id FROM mindbody_visits
                WHERE client_id = c.id AND start_at > $2 AND attendance = 'booked' ORDER BY start_at, id LIMIT ${UPCOMING_CLASSES_SHOWN}) u) AS upcoming
     FROM clients c
     LEFT JOIN LATERAL (SELECT start_at, class_name FROM mindbody_visits
                        WHERE client_id = c.id AND signed_in AND start_at <= $2 ORDER BY start_at DESC, id DESC LIMIT 1) v ON true
     LEFT JOIN LATERAL (SELECT vv.viewed_at, vd.title FROM video_views vv LEFT JOIN videos vd ON vd.id = vv.video_id
                        WHERE vv.client_id = c.id AND vv.viewed_at <= $2 ORDER BY vv.viewed_at DESC, vv.id DESC LIMIT 1) w ON true
     WHERE c.id = $1`,
    [clientId, now.toISOString()],
  );
  return row;
}
