import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable } from '../db/client';

/** The statements of the sending job (send.ts) on the broadcast itself, and its recovery after a stop (recovery.ts). */

const SendingBroadcastRow = z.object({
  id: z.number(),
  kind: z.enum(['broadcast', 'bulk_push']),
  title: z.string(),
  body: z.string(),
  status: z.string(),
  send_at: timestamp.nullable(),
  staff_user_id: z.number().nullable(),
  created_by: z.string().nullable(),
  max_per_minute: z.number().nullable(),
  filter: z.unknown(),
  /** Not null while its recipients are being fixed (recipients.ts): the last client id fixed. */
  fixing_after: z.number().nullable(),
  created_at: timestamp,
  started_at: timestamp.nullable(),
  /** Versions of its text ({ title, body }), null with one text; then the winner's rule. */
  variants: z.array(z.object({ title: z.string(), body: z.string() })).nullable(),
  pick_winner_after_hours: z.number().nullable(),
  winner_metric: z.enum(['conversion', 'open']).nullable(),
});
/** A broadcast as its sending job reads it. */
export type BroadcastRow = z.infer<typeof SendingBroadcastRow>;

const StatusRow = z.object({ status: z.string() });
const ReleasedRow = z.object({ n: z.number(), slots: z.number() });

export async function sendingBroadcast(db: Queryable, id: number): Promise<BroadcastRow | undefined> {
  const [broadcast] = await db.rows(
    SendingBroadcastRow,
    `SELECT id, kind, title, body, status, send_at, staff_user_id, created_by, max_per_minute, filter, fixing_after, created_at, started_at,
              variants, pick_winner_after_hours, winner_metric
       FROM broadcasts WHERE id = $1`,
    [id],
  );
  return broadcast;
}

export async function broadcastStatus(db: Queryable, id: number): Promise<string | undefined> {
  const [current] = await db.rows(StatusRow, 'SELECT status FROM broadcasts WHERE id = $1', [id]);
  return current?.status;
}

export const markSending = (tx: Queryable, id: number, started: Date) =>
  tx.execute("UPDATE broadcasts SET status = 'sending', started_at = $2 WHERE id = $1 AND status = 'scheduled'", [id, started.toISOString()]);

export const markSent = (tx: Queryable, id: number, finished: Date) =>
  tx.execute("UPDATE broadcasts SET status = 'sent', finished_at = $2 WHERE id = $1 AND status = 'sending'", [id, finished.toISOString()]);

/** Recipients a stopped batch left 'sending' claimed again, their cap slots of `day` given back (recovery.ts); answers how many. */
export async function releaseStopped(tx: Queryable, broadcastId: number, day: string): Promise<number> {
  const [row] = await tx.rows(
    ReleasedRow,
    `WITH stopped AS (
       SELECT client_id, push_id AS retried FROM broadcast_recipients WHERE broadcast_id = $1 AND status = 'sending'
     ), slots AS (
       UPDATE automated_push_days d SET sent = d.sent - 1
       FROM stopped s WHERE s.retried IS NULL AND d.client_id = s.client_id AND d.local_day = $2 AND d.sent > 0
       RETURNING d.client_id
     ), released AS (
       UPDATE broadcast_recipients r SET status = CASE WHEN s.retried IS NOT NULL THEN 'retrying' ELSE 'pending' END
       FROM stopped s WHERE r.broadcast_id = $1 AND r.client_id = s.client_id
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM released)::int AS n, (SELECT count(*) FROM slots)::int AS slots`,
    [broadcastId, day],
  );
  return row?.n ?? 0;
}
