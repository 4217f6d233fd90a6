import { BROADCAST_STATUSES, type Broadcast, type BroadcastStatus } from '@contract/broadcasts';
import { GOAL_KINDS, WINNER_METRICS, WINNER_REASONS } from '@contract/outcomeRules';
import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Database, Queryable } from '../db/client';
import { notFound } from '../lib/errors';
import { storedFilter } from '../segments/queries';
import { recipientCounts } from './counts';

/** Broadcasts: reading them with their counts (the recipients' rows, counts.ts), and the statements of store.ts. */

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

const BroadcastRow = z.object({
  id: z.number(),
  kind: z.enum(['broadcast', 'bulk_push']),
  title: z.string(),
  body: z.string(),
  filter: z.unknown(),
  segment_id: z.number().nullable(),
  status: z.enum(BROADCAST_STATUSES),
  send_at: timestamp.nullable(),
  recipients: z.number(),
  fixing_after: z.number().nullable(),
  max_per_minute: z.number().nullable(),
  created_by: z.string().nullable(),
  created_at: timestamp,
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  goal: z.enum(GOAL_KINDS),
  goal_window_days: z.number(),
  holdout_percent: z.number(),
  held_out: z.number(),
  variants: z.array(z.object({ title: z.string(), body: z.string() })).nullable(),
  test_percent: z.number().nullable(),
  pick_winner_after_hours: z.number().nullable(),
  winner_metric: z.enum(WINNER_METRICS).nullable(),
  winner_variant: z.number().nullable(),
  winner_reason: z.enum(WINNER_REASONS).nullable(),
  winner_picked_at: timestamp.nullable(),
});
type BroadcastRow = z.infer<typeof BroadcastRow>;
const BroadcastPageRow = BroadcastRow.extend({ total: z.number() });
const RecipientCountRow = z.object({ broadcast_id: z.number(), status: z.string(), reason: z.string().nullable(), n: z.number() });
const COLUMNS =
  'id, kind, title, body, filter, segment_id, status, send_at, recipients, fixing_after, max_per_minute, created_by, created_at, started_at, finished_at, goal, goal_window_days, holdout_percent, held_out, variants, test_percent, pick_winner_after_hours, winner_metric, winner_variant, winner_reason, winner_picked_at';

async function withCounts(db: Queryable, rows: BroadcastRow[]): Promise<Broadcast[]> {
  if (rows.length === 0) return [];
  const counts = await db.rows(
    RecipientCountRow,
    `SELECT broadcast_id, status, COALESCE(skip_reason, failure) AS reason, count(*)::int AS n
     FROM broadcast_recipients WHERE broadcast_id = ANY($1::bigint[]) GROUP BY 1, 2, 3`,
    [rows.map((row) => row.id)],
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    filter: row.filter == null ? null : storedFilter(row.filter),
    segment_id: row.segment_id,
    status: row.status,
    send_at: iso(row.send_at),
    recipients: row.recipients,
    recipients_estimate: row.fixing_after != null,
    max_per_minute: row.max_per_minute,
    counts: recipientCounts(
      counts.filter((count) => count.broadcast_id === row.id),
      row.status,
      row.recipients,
      row.fixing_after != null,
    ),
    goal: row.goal,
    window_days: row.goal_window_days,
    holdout_percent: row.holdout_percent,
    variants: row.variants,
    test_percent: row.test_percent,
    pick_winner_after_hours: row.pick_winner_after_hours,
    winner_metric: row.winner_metric,
    winner: row.winner_variant == null ? null : { index: row.winner_variant, reason: row.winner_reason!, picked_at: iso(row.winner_picked_at)! },
    held_out: row.held_out,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  }));
}

export async function getBroadcast(database: Queryable, id: number): Promise<Broadcast> {
  const rows = await database.rows(BroadcastRow, `SELECT ${COLUMNS} FROM broadcasts WHERE id = $1`, [id]);
  if (!rows[0]) throw notFound(`No broadcast with id ${id}`);
  return (await withCounts(database, rows))[0]!;
}

/** Newest first; one page and the total. */
export async function listBroadcasts(
  database: Database,
  options: { range: [number, number]; status?: string | null; kind?: string | null },
): Promise<{ rows: Broadcast[]; total: number }> {
  const rows = await database.rows(
    BroadcastPageRow,
    `SELECT ${COLUMNS}, count(*) OVER () AS total FROM broadcasts
     WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR kind = $2)
     ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
    [options.status ?? null, options.kind ?? null, options.range[1] - options.range[0] + 1, options.range[0]],
  );
  return { rows: await withCounts(database, rows), total: rows[0] ? rows[0].total : 0 };
}

const EarlierRow = z.object({
  id: z.number(),
  recipients: z.number(),
  status: z.enum(BROADCAST_STATUSES),
  request_digest: z.string().nullable(),
  fixing_after: z.number().nullable(),
});
const IdRow = z.object({ id: z.number() });
const TargetRow = z.object({ filter: z.unknown(), segment_id: z.number().nullable() });
const DraftRow = TargetRow.extend({ status: z.string() });
const DraftTextRow = z.object({ status: z.string(), title: z.string(), body: z.string() });
const StatusRow = z.object({ status: z.string() });

/** The broadcast an earlier request with this idempotency key created. */
export async function broadcastByKey(db: Queryable, key: string): Promise<z.infer<typeof EarlierRow> | undefined> {
  const [row] = await db.rows(EarlierRow, 'SELECT id, recipients, status, request_digest, fixing_after FROM broadcasts WHERE idempotency_key = $1', [key]);
  return row;
}

export interface BroadcastInsert {
  kind: string;
  title: string;
  body: string;
  filter: string | null;
  segment_id: number | null;
  send_at: string | null;
  recipients: number;
  staff_user_id: number | null;
  created_by: string | null;
  created_at: string;
  goal: string;
  goal_window_days: number;
  holdout_percent: number;
  idempotency_key: string | null;
  request_digest: string | null;
  max_per_minute: number | null;
  variants: string | null;
  test_percent: number | null;
  pick_winner_after_hours: number | null;
  winner_metric: string | null;
}

/** A new broadcast, as a draft; answers its id. */
export async function addBroadcast(tx: Queryable, row: BroadcastInsert): Promise<number> {
  const [inserted] = await tx.rows(
    IdRow,
    `INSERT INTO broadcasts (kind, title, body, filter, segment_id, status, send_at, recipients, staff_user_id, created_by, created_at,
                               goal, goal_window_days, holdout_percent, idempotency_key, request_digest, max_per_minute,
                               variants, test_percent, pick_winner_after_hours, winner_metric)
       VALUES ($1, $2, $3, $4::jsonb, $5, 'draft', $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::jsonb, $18, $19, $20) RETURNING id`,
    [
      row.kind,
      row.title,
      row.body,
      row.filter,
      row.segment_id,
      row.send_at,
      row.recipients,
      row.staff_user_id,
      row.created_by,
      row.created_at,
      row.goal,
      row.goal_window_days,
      row.holdout_percent,
      row.idempotency_key,
      row.request_digest,
      row.max_per_minute,
      row.variants,
      row.test_percent,
      row.pick_winner_after_hours,
      row.winner_metric,
    ],
  );
  return inserted!.id;
}

/** Sending (or scheduled) while its job fixes the recipients in chunks: `recipients` is the estimate until then. */
export const startFixing = (tx: Queryable, id: number, status: BroadcastStatus, recipients: number, sendAt: string | null, startedAt: string | null) =>
  tx.execute('UPDATE broadcasts SET status = $2, recipients = $3, send_at = $4, started_at = $5, fixing_after = 0 WHERE id = $1', [
    id,
    status,
    recipients,
    sendAt,
    startedAt,
  ]);

export const startBroadcast = (tx: Queryable, id: number, status: BroadcastStatus, recipients: number, sendAt: string | null, startedAt: string | null) =>
  tx.execute('UPDATE broadcasts SET status = $2, recipients = $3, send_at = $4, started_at = $5 WHERE id = $1', [id, status, recipients, sendAt, startedAt]);

/** What a broadcast selects by: its segment, or its own filter. */
export async function broadcastTarget(db: Queryable, id: number): Promise<z.infer<typeof TargetRow> | undefined> {
  const [row] = await db.rows(TargetRow, 'SELECT filter, segment_id FROM broadcasts WHERE id = $1', [id]);
  return row;
}

/** A draft's status and target, locked until the transaction ends. */
export async function lockDraft(tx: Queryable, id: number): Promise<z.infer<typeof DraftRow> | undefined> {
  const [row] = await tx.rows(DraftRow, 'SELECT status, filter, segment_id FROM broadcasts WHERE id = $1 FOR UPDATE', [id]);
  return row;
}

export const setBroadcastFilter = (tx: Queryable, id: number, filter: unknown) =>
  tx.execute('UPDATE broadcasts SET filter = $2::jsonb WHERE id = $1', [id, JSON.stringify(filter)]);

/** A draft's status and text, locked until the transaction ends. */
export async function lockDraftText(tx: Queryable, id: number): Promise<z.infer<typeof DraftTextRow> | undefined> {
  const [row] = await tx.rows(DraftTextRow, 'SELECT status, title, body FROM broadcasts WHERE id = $1 FOR UPDATE', [id]);
  return row;
}

/** A draft with versions: its title and body are the first version's. */
export const setDraftText = (tx: Queryable, id: number, message: { title: string; body: string }) =>
  tx.execute(
    `UPDATE broadcasts SET title = $2, body = $3,
         variants = CASE WHEN variants IS NULL THEN NULL ELSE jsonb_set(variants, '{0}', jsonb_build_object('title', $2::text, 'body', $3::text)) END
       WHERE id = $1`,
    [id, message.title, message.body],
  );

/** A broadcast's status, locked until the transaction ends. */
export async function lockBroadcastStatus(tx: Queryable, id: number): Promise<string | undefined> {
  const [row] = await tx.rows(StatusRow, 'SELECT status FROM broadcasts WHERE id = $1 FOR UPDATE', [id]);
  return row?.status;
}

export const markCancelled = (tx: Queryable, id: number, at: Date) =>
  tx.execute("UPDATE broadcasts SET status = 'cancelled', finished_at = $2 WHERE id = $1", [id, at.toISOString()]);
