import { GOAL_KINDS, WINNER_METRICS, WINNER_REASONS } from '@contract/outcomeRules';
import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable } from '../db/client';
import { holdoutDrawSql } from './rules';
import type { AutomatedOutcome } from './audience';

/** Message outcomes: the rows of a broadcast's or an automated push's audience (audience.ts) and the figures read from them (results.ts). */

const HeldRow = z.object({ held: z.number() });
const HeldOutRow = z.object({ held_out: z.boolean() });

/** Every recipient's outcome row, the held-out ones (drawn from `seed`) out of broadcast_recipients; answers how many were held out. */
export async function insertBroadcastOutcomes(tx: Queryable, broadcastId: number, seed: string, sentAt: Date): Promise<number> {
  const [row] = await tx.rows(
    HeldRow,
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
    [broadcastId, seed, sentAt.toISOString()],
  );
  return row?.held ?? 0;
}

export const addHeldOut = (tx: Queryable, broadcastId: number, held: number) =>
  tx.execute('UPDATE broadcasts SET held_out = held_out + $2 WHERE id = $1', [broadcastId, held]);

/** An automated push's outcome row, unless it has one already. */
export async function insertAutomatedOutcome(tx: Queryable, push: AutomatedOutcome, held: boolean): Promise<void> {
  await tx.execute(
    `INSERT INTO message_outcomes (message_type, automated_push_id, week, client_id, held_out, goal, window_days, sent_at, converted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, message_outcome_first_goal($4, $6, $8, $7)) ON CONFLICT (automated_push_id) DO NOTHING`,
    [push.messageType, push.automatedPushId, push.week, push.clientId, held, push.goal, push.windowDays, push.at.toISOString()],
  );
}

/** Whether the automated push's client was held out, once its row exists. */
export async function heldOutOf(tx: Queryable, automatedPushId: number): Promise<boolean | undefined> {
  const [row] = await tx.rows(HeldOutRow, 'SELECT held_out FROM message_outcomes WHERE automated_push_id = $1', [automatedPushId]);
  return row?.held_out;
}

const GroupRow = z.object({
  held_out: z.boolean(),
  variant: z.number().nullable(),
  clients: z.number(),
  sent: z.number(),
  delivered: z.number(),
  opened: z.number(),
  converted: z.number(),
});
/** The figures of one group of a message's outcome rows (held out or not, by version). */
export type GroupRow = z.infer<typeof GroupRow>;
const BroadcastGroupRow = GroupRow.extend({ closes: timestamp.nullable() });
const AutomatedGroupRow = GroupRow.extend({ message_type: z.number(), week: z.string(), goal: z.enum(GOAL_KINDS), window_days: z.number() });
const BroadcastOutcomeRow = z.object({
  goal: z.enum(GOAL_KINDS),
  goal_window_days: z.number(),
  holdout_percent: z.number(),
  title: z.string(),
  body: z.string(),
  variants: z.array(z.object({ title: z.string(), body: z.string() })).nullable(),
  winner_metric: z.enum(WINNER_METRICS).nullable(),
  winner_variant: z.number().nullable(),
  winner_reason: z.enum(WINNER_REASONS).nullable(),
  winner_figures: z.array(z.object({ clients: z.number(), hits: z.number() })).nullable(),
  winner_picked_at: timestamp.nullable(),
  started_at: timestamp.nullable(),
  send_at: timestamp.nullable(),
  pick_winner_after_hours: z.number().nullable(),
  status: z.string(),
});

/** The aggregate every result is made of: one pass over the message's outcome rows. */
const AGGREGATE = `count(*)::int AS clients,
  count(*) FILTER (WHERE push_status IN ('sent', 'queued'))::int AS sent,
  count(*) FILTER (WHERE push_status = 'sent')::int AS delivered,
  count(opened_at)::int AS opened,
  count(converted_at)::int AS converted`;

/** A broadcast's goal, its versions and their winner. */
export async function broadcastForOutcome(db: Queryable, id: number): Promise<z.infer<typeof BroadcastOutcomeRow> | undefined> {
  const [broadcast] = await db.rows(
    BroadcastOutcomeRow,
    `SELECT goal, goal_window_days, holdout_percent, title, body, variants, winner_metric, winner_variant, winner_reason, winner_figures, winner_picked_at,
            started_at, send_at, pick_winner_after_hours, status
     FROM broadcasts WHERE id = $1`,
    [id],
  );
  return broadcast;
}

/** A broadcast's figures by held out and version, with when each group's window closes. */
export const broadcastGroups = (db: Queryable, id: number) =>
  db.rows(
    BroadcastGroupRow,
    `SELECT held_out, variant, ${AGGREGATE}, max(sent_at) + max(window_days) * interval '1 day' AS closes
     FROM message_outcomes WHERE broadcast_id = $1 GROUP BY held_out, variant`,
    [id],
  );

/** The automated types' figures by type, studio week and held out, newest week first. */
export const automatedGroups = (db: Queryable, options: { type?: number; from: string; to: string }) =>
  db.rows(
    AutomatedGroupRow,
    // A goal changed mid-week: the week shows the goal most of its pushes had.
    `SELECT message_type, week::text AS week, held_out, NULL::int AS variant, ${AGGREGATE}, mode() WITHIN GROUP (ORDER BY goal) AS goal,
       mode() WITHIN GROUP (ORDER BY window_days) AS window_days
     FROM message_outcomes
     WHERE message_type IS NOT NULL AND ($1::int IS NULL OR message_type = $1) AND week >= $2::date AND week <= $3::date
     GROUP BY message_type, week, held_out ORDER BY week DESC, message_type`,
    [options.type ?? null, options.from, options.to],
  );
