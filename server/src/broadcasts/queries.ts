import type { Broadcast, BroadcastStatus } from '@contract/broadcasts';
import type { Database, Queryable } from '../db/client';
import { notFound } from '../lib/errors';
import { storedFilter } from '../segments/queries';
import { recipientCounts, type RecipientCount } from './counts';

/** Reading broadcasts with their counts (the recipients' rows, counts.ts). */

const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

type BroadcastRow = Record<string, unknown> & { id: number };
const COLUMNS =
  'id, kind, title, body, filter, segment_id, status, send_at, recipients, fixing_after, max_per_minute, created_by, created_at, started_at, finished_at, goal, goal_window_days, holdout_percent, held_out, variants, test_percent, pick_winner_after_hours, winner_metric, winner_variant, winner_reason, winner_picked_at';

async function withCounts(db: Queryable, rows: BroadcastRow[]): Promise<Broadcast[]> {
  if (rows.length === 0) return [];
  const counts = await db.query<RecipientCount>(
    `SELECT broadcast_id, status, COALESCE(skip_reason, failure) AS reason, count(*)::int AS n
     FROM broadcast_recipients WHERE broadcast_id = ANY($1::bigint[]) GROUP BY 1, 2, 3`,
    [rows.map((row) => Number(row.id))],
  );
  return rows.map((row) => {
    const status = row.status as BroadcastStatus;
    return {
      id: Number(row.id),
      kind: row.kind as Broadcast['kind'],
      title: String(row.title),
      body: String(row.body),
      filter: row.filter == null ? null : storedFilter(row.filter),
      segment_id: row.segment_id == null ? null : Number(row.segment_id),
      status,
      send_at: iso(row.send_at),
      recipients: Number(row.recipients),
      recipients_estimate: row.fixing_after != null,
      max_per_minute: row.max_per_minute == null ? null : Number(row.max_per_minute),
      counts: recipientCounts(
        counts.filter((count) => Number(count.broadcast_id) === Number(row.id)),
        status,
        Number(row.recipients),
        row.fixing_after != null,
      ),
      goal: row.goal as Broadcast['goal'],
      window_days: Number(row.goal_window_days),
      holdout_percent: Number(row.holdout_percent),
      variants: (row.variants as Broadcast['variants']) ?? null,
      test_percent: row.test_percent == null ? null : Number(row.test_percent),
      pick_winner_after_hours: row.pick_winner_after_hours == null ? null : Number(row.pick_winner_after_hours),
      winner_metric: (row.winner_metric as Broadcast['winner_metric']) ?? null,
      winner:
        row.winner_variant == null
          ? null
          : {
              index: Number(row.winner_variant),
              reason: row.winner_reason as NonNullable<Broadcast['winner']>['reason'],
              picked_at: iso(row.winner_picked_at)!,
            },
      held_out: Number(row.held_out),
      created_by: (row.created_by as string | null) ?? null,
      created_at: iso(row.created_at)!,
      started_at: iso(row.started_at),
      finished_at: iso(row.finished_at),
    };
  });
}

export async function getBroadcast(database: Queryable, id: number): Promise<Broadcast> {
  const rows = await database.query<BroadcastRow>(`SELECT ${COLUMNS} FROM broadcasts WHERE id = $1`, [id]);
  if (!rows[0]) throw notFound(`No broadcast with id ${id}`);
  return (await withCounts(database, rows))[0]!;
}

/** Newest first; one page and the total. */
export async function listBroadcasts(
  database: Database,
  options: { range: [number, number]; status?: string | null; kind?: string | null },
): Promise<{ rows: Broadcast[]; total: number }> {
  const rows = await database.query<BroadcastRow & { total: number }>(
    `SELECT ${COLUMNS}, count(*) OVER () AS total FROM broadcasts
     WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR kind = $2)
     ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
    [options.status ?? null, options.kind ?? null, options.range[1] - options.range[0] + 1, options.range[0]],
  );
  return { rows: await withCounts(database, rows), total: rows[0] ? Number(rows[0].total) : 0 };
}
