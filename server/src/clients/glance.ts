import { UPCOMING_CLASSES_SHOWN, type ClientGlance } from '@contract/glance';
import type { Queryable } from '../db/client';
import { notFound } from '../lib/errors';
import { planRenews, platformsOf, wholeDaysBetween } from './glanceRules';
import { clientTags } from './notes';
import { isoOrNull } from './rows';

/**
 * The client "at a glance": one statement of scalar subqueries, each served by
 * the client's (client_id, time DESC) index of its table, plus the tags. 404: no such client.
 */
export async function clientGlance(database: Queryable, clientId: number, now: Date): Promise<ClientGlance> {
  const [row] = await database.query<{
    member_since: Date | string | null;
    class_at: Date | string | null;
    class_name: string | null;
    stream_at: Date | string | null;
    stream_title: string | null;
    level_name: string | null;
    plan: { name: string | null; product: string | null; status: string | null; expires_at: string | null; access_ends_at: string | null } | null;
    override_ends_at: Date | string | null;
    lifetime_purchases: number;
    devices: { platform: string | null; is_ipad: boolean | null }[] | null;
    push_reachable: boolean;
    mindbody_status: string;
    mb_client_id: string | null;
    phone: string | null;
    visits_total: number;
    visits_30d: number;
    total_spent: string | number | null;
    last_app_open: Date | string | null;
    upcoming: { at: string; name: string | null }[] | null;
  }>(
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
  if (!row) throw notFound(`No client with id ${clientId}`);
  const plan = row.plan;
  const renews = planRenews(plan?.status ?? null);
  return {
    member_since: isoOrNull(row.member_since),
    last_class: row.class_at ? { at: isoOrNull(row.class_at)!, name: row.class_name ?? '' } : null,
    last_stream: row.stream_at ? { at: isoOrNull(row.stream_at)!, title: row.stream_title ?? '' } : null,
    level_name: row.level_name,
    plan: plan
      ? { name: plan.name, product: plan.product, status: plan.status, renews, ends_at: isoOrNull(renews ? plan.expires_at : plan.access_ends_at) }
      : null,
    override_ends_at: isoOrNull(row.override_ends_at),
    lifetime_purchases: Number(row.lifetime_purchases),
    platforms: platformsOf(row.devices ?? []),
    push_reachable: Boolean(row.push_reachable),
    mindbody_status: row.mindbody_status,
    mindbody_linked: (row.mb_client_id ?? '').trim().length > 2,
    tags: await clientTags(database, clientId),
    phone: row.phone,
    visits_total: Number(row.visits_total),
    visits_30d: Number(row.visits_30d),
    days_since_last_visit: row.class_at ? wholeDaysBetween(isoOrNull(row.class_at)!, now) : null,
    total_spent_usd: row.total_spent === null ? null : Math.round(Number(row.total_spent) * 100) / 100,
    last_app_open: isoOrNull(row.last_app_open),
    upcoming_classes: (row.upcoming ?? []).map((visit) => ({ at: isoOrNull(visit.at)!, name: visit.name ?? '' })),
  };
}
