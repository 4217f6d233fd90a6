import type { Database } from '../../server/src/db/client';

/**
 * The dashboard figures computed straight from their definitions (docs/features.md "Dashboard figures") over the raw
 * tables, with none of the aggregates: slow at scale, but the yardstick the fast figures must match.
 */
export async function directStats(database: Database, now: Date) {
  const params = [now.toISOString()];
  const window = `viewed_at >= date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '30 days'
                  AND viewed_at < date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const [subscribers] = await database.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM clients c
     LEFT JOIN access_levels override_level ON override_level.sort_order = c.vod_access_level
     WHERE CASE WHEN c.admin_updated_expiration > $1::timestamptz THEN coalesce(override_level.is_paid, false)
                ELSE EXISTS (
                  SELECT 1 FROM purchases p JOIN access_levels al ON al.id = p.access_level_id AND al.is_paid
                  WHERE p.client_id = c.id AND p.grants_access
                    AND coalesce(p.purchased_at, '-infinity') <= $1::timestamptz
                    AND coalesce(p.access_ends_at, 'infinity') > $1::timestamptz) END`,
    params,
  );
  const [plays] = await database.query<{ n: number }>(`SELECT round(count(*) / 30.0)::int AS n FROM video_views WHERE ${window}`, params);
  const [popular] = await database.query<{ name: string }>(
    `SELECT vc.name FROM video_views w JOIN videos v ON v.id = w.video_id JOIN video_categories vc ON vc.id = v.category_id
     WHERE ${window} GROUP BY vc.id ORDER BY count(*) DESC, vc.sort_order, vc.name LIMIT 1`,
    params,
  );
  return { subscribers: subscribers!.n, daily_plays: plays!.n, most_popular: popular?.name ?? null };
}
