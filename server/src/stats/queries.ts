import { z } from 'zod';
import type { Database } from '../db/client';

const TotalRow = z.object({ total: z.number() });
const DayPlaysRow = z.object({ day: z.string(), plays: z.number() });
const NameRow = z.object({ name: z.string() });
const SubscribersRow = z.object({ subscribers: z.number() });

/** Plays in [from, to) (UTC days), from the per-day-and-category aggregate the video_views triggers keep. */
export async function totalPlays(database: Database, from: string, to: string): Promise<number> {
  const [row] = await database.rows(
    TotalRow,
    'SELECT coalesce(sum(plays), 0)::bigint AS total FROM category_plays_daily WHERE day >= $1::date AND day < $2::date',
    [from, to],
  );
  return row!.total;
}

export async function playsPerDay(database: Database, from: string, to: string): Promise<{ day: string; plays: number }[]> {
  return database.rows(
    DayPlaysRow,
    `SELECT day::text AS day, sum(plays)::bigint AS plays FROM category_plays_daily
     WHERE day >= $1::date AND day < $2::date GROUP BY day ORDER BY day`,
    [from, to],
  );
}

/** The category with the most plays in [from, to); ties go to the category listed first. Null when nothing was played. */
export async function mostPlayedCategory(database: Database, from: string, to: string): Promise<string | null> {
  const [row] = await database.rows(
    NameRow,
    `SELECT c.name FROM category_plays_daily d
     JOIN video_categories c ON c.id = d.category_id
     WHERE d.day >= $1::date AND d.day < $2::date
     GROUP BY c.id
     ORDER BY sum(d.plays) DESC, c.sort_order, c.name
     LIMIT 1`,
    [from, to],
  );
  return row?.name ?? null;
}

/**
 * Paid subscribers at each moment: clients whose effective access level then was a paid one.
 *
 * The effective level of a client at t is the level of their admin override in force at t, otherwise the
 * best paid level of their entitling purchases holding t (purchase_status_entitles in migration 0008),
 * otherwise free. Overrides come from access_override_history (migration 0023) with their real starts and
 * ends, so past moments count finished overrides too; at now the override in force is the one the clients
 * row holds (clients.admin_updated_expiration > now), recorded in the same statement that granted it.
 *
 * client_paid_spans holds each client's paid time, so the count at t is (spans started by t) - (spans ended
 * by t): per-day totals before t's day plus an index range within it. No client, purchase or override row is
 * read here.
 */
export async function paidSubscribersAt(database: Database, moments: Date[]): Promise<number[]> {
  const rows = await database.rows(
    SubscribersRow,
    `WITH moments AS (
       SELECT at, ord, (at AT TIME ZONE 'UTC')::date AS day,
              date_trunc('day', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS day_start
       FROM unnest($1::timestamptz[]) WITH ORDINALITY AS m (at, ord)
     )
     SELECT (
         (SELECT coalesce(sum(d.starts - d.ends), 0) FROM paid_span_days d WHERE d.day < m.day)
       + (SELECT count(*) FROM client_paid_spans s WHERE s.starts_at >= m.day_start AND s.starts_at <= m.at)
       - (SELECT count(*) FROM client_paid_spans s WHERE s.ends_at >= m.day_start AND s.ends_at <= m.at)
       )::int AS subscribers
     FROM moments m ORDER BY m.ord`,
    [moments.map((m) => m.toISOString())],
  );
  return rows.map((row) => row.subscribers);
}
