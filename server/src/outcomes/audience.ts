import type { Queryable } from '../db/client';
import { automatedSeed, broadcastSeed, holdoutDrawSql, isHeldOut } from './rules';

/**
 * A broadcast's audience split, once its recipients are fixed: every recipient gets an outcome row,
 * the held-out ones (holdoutDraw below the broadcast's share) leave broadcast_recipients, so they are
 * never sent to and its counts still add up to `recipients`. Answers how many were held out. The one
 * place the sending side calls; `sentAt` is when it is meant to go out.
 */
export async function splitBroadcastAudience(tx: Queryable, broadcastId: number, sentAt: Date): Promise<number> {
  const [row] = await tx.query<{ held: number }>(
    `WITH b AS (SELECT id, goal, goal_window_days, holdout_percent, $3::timestamptz AS since,
                       $3::timestamptz + goal_window_days * interval '1 day' AS until FROM broadcasts WHERE id = $1),
     drawn AS (
       SELECT r.client_id, b.holdout_percent > 0 AND ${holdoutDrawSql('$2::text', 'r.client_id')} < b.holdout_percent / 100.0 AS held, b.goal, b.goal_window_days
       FROM broadcast_recipients r JOIN b ON b.id = r.broadcast_id
     ),
     -- Goal events already in the window (it starts now or later: few or none), read by time, once for all.
     events AS (
       SELECT client_id, min(at) AS at FROM (
         SELECT v.client_id, v.start_at AS at FROM mindbody_visits v, b
           WHERE b.goal IN ('class', 'any') AND v.signed_in AND v.end_at >= b.since AND v.start_at >= b.since AND v.start_at < b.until
         UNION ALL
         SELECT w.client_id, w.viewed_at FROM video_views w, b WHERE b.goal IN ('stream', 'any') AND w.viewed_at >= b.since AND w.viewed_at < b.until
         UNION ALL
         SELECT p.client_id, p.purchased_at FROM purchases p, b WHERE b.goal IN ('purchase', 'any') AND p.purchased_at >= b.since AND p.purchased_at < b.until
       ) e GROUP BY client_id
     ),
     outcomes AS (
       INSERT INTO message_outcomes (broadcast_id, client_id, held_out, goal, window_days, sent_at, converted_at)
       SELECT $1, d.client_id, d.held, d.goal, d.goal_window_days, $3, e.at FROM drawn d LEFT JOIN events e ON e.client_id = d.client_id
       ON CONFLICT (broadcast_id, client_id) WHERE broadcast_id IS NOT NULL DO NOTHING
       RETURNING client_id, held_out
     ),
     removed AS (
       DELETE FROM broadcast_recipients r USING outcomes o WHERE r.broadcast_id = $1 AND r.client_id = o.client_id AND o.held_out RETURNING 1
     )
     SELECT count(*)::int AS held FROM removed`,
    [broadcastId, broadcastSeed(broadcastId), sentAt.toISOString()],
  );
  const held = Number(row?.held ?? 0);
  if (held > 0) await tx.query('UPDATE broadcasts SET held_out = held_out + $2 WHERE id = $1', [broadcastId, held]);
  return held;
}

export interface AutomatedOutcome {
  automatedPushId: number;
  messageType: number;
  clientId: number;
  week: string;
  goal: string;
  windowDays: number;
  holdoutPercent: number;
  at: Date;
}

/**
 * An automated push's outcome row, the first time it comes to be sent; true when the client is held
 * out of the type this week (then it is not sent). A retry finds the row and the same answer.
 */
export async function recordAutomatedAudience(tx: Queryable, push: AutomatedOutcome): Promise<boolean> {
  const held = isHeldOut(automatedSeed(push.messageType, push.week), push.clientId, push.holdoutPercent);
  await tx.query(
    `INSERT INTO message_outcomes (message_type, automated_push_id, week, client_id, held_out, goal, window_days, sent_at, converted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, message_outcome_first_goal($4, $6, $8, $7)) ON CONFLICT (automated_push_id) DO NOTHING`,
    [push.messageType, push.automatedPushId, push.week, push.clientId, held, push.goal, push.windowDays, push.at.toISOString()],
  );
  const [row] = await tx.query<{ held_out: boolean }>('SELECT held_out FROM message_outcomes WHERE automated_push_id = $1', [push.automatedPushId]);
  return row?.held_out ?? held;
}
