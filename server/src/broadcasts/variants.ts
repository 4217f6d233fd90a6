import type { Variant } from '@contract/broadcasts';
import type { WinnerMetric, WinnerReason } from '@contract/outcomeRules';
import { recordAudit } from '../audit/record';
import type { Queryable } from '../db/client';
import { holdoutDrawSql, pickWinner, variantSeed, type Group } from '../outcomes/rules';

/**
 * Versions of a broadcast's text (docs/automation.md#versions-a-test-then-the-winner). Once the
 * holdout is out, the clients sent to are ordered by their draw from the broadcast's variant seed
 * (reproducible, and independent of who was held out); the first round(n × test_percent / 100) are
 * the test part, dealt to the versions in turn (A, B, C, A, …), so each version gets an equal share
 * (one more at most). The others wait ('waiting') for the winner.
 */
export async function assignVariants(tx: Queryable, broadcastId: number): Promise<void> {
  await tx.query(
    `WITH b AS (SELECT jsonb_array_length(variants) AS n, test_percent FROM broadcasts WHERE id = $1 AND variants IS NOT NULL),
     ranked AS (
       SELECT r.client_id, row_number() OVER (ORDER BY ${holdoutDrawSql('$2::text', 'r.client_id')}, r.client_id) - 1 AS rank, count(*) OVER () AS total
       FROM broadcast_recipients r WHERE r.broadcast_id = $1 AND EXISTS (SELECT 1 FROM b)
     ),
     dealt AS (
       SELECT k.client_id, CASE WHEN k.rank < round(k.total * b.test_percent / 100.0) THEN (k.rank % b.n)::smallint END AS variant FROM ranked k, b
     ),
     assigned AS (
       UPDATE broadcast_recipients r SET variant = d.variant, status = CASE WHEN d.variant IS NULL THEN 'waiting' ELSE r.status END
       FROM dealt d WHERE r.broadcast_id = $1 AND r.client_id = d.client_id
       RETURNING r.client_id, r.variant
     )
     UPDATE message_outcomes o SET variant = a.variant FROM assigned a WHERE o.broadcast_id = $1 AND o.client_id = a.client_id AND a.variant IS NOT NULL`,
    [broadcastId, variantSeed(broadcastId)],
  );
}

export interface VariantFigures {
  clients: number;
  sent: number;
  opened: number;
  converted: number;
}

/** Each version's figures in the test part, in version order (a version nobody got: zeros). */
export async function variantFigures(db: Queryable, broadcastId: number, versions: number): Promise<VariantFigures[]> {
  const rows = await db.query<VariantFigures & { variant: number }>(
    `SELECT variant, count(*)::int AS clients, count(*) FILTER (WHERE push_status IN ('sent', 'queued'))::int AS sent,
            count(opened_at)::int AS opened, count(converted_at)::int AS converted
     FROM message_outcomes WHERE broadcast_id = $1 AND NOT held_out AND variant IS NOT NULL GROUP BY variant`,
    [broadcastId],
  );
  return Array.from({ length: versions }, (_, index) => {
    const row = rows.find((r) => Number(r.variant) === index);
    return { clients: Number(row?.clients ?? 0), sent: Number(row?.sent ?? 0), opened: Number(row?.opened ?? 0), converted: Number(row?.converted ?? 0) };
  });
}

/** What the winner is judged on: conversions among a version's clients, or opens among its pushes sent. */
export const metricGroup = (figures: VariantFigures, metric: WinnerMetric): Group =>
  metric === 'open' ? { clients: figures.sent, converted: figures.opened } : { clients: figures.clients, converted: figures.converted };

export interface BroadcastVersions {
  id: number;
  variants: Variant[];
  winner_metric: WinnerMetric;
}

/**
 * Picks the winner by the pure rule (outcomes/rules.ts pickWinner) on the figures of this moment,
 * records it with those figures, and hands the rest to the sending job: their version is the
 * winner's, they are pending again, and their window starts now. Nothing when the broadcast is no
 * longer sending (cancelled) or a winner is already recorded.
 */
export async function releaseToWinner(tx: Queryable, broadcast: BroadcastVersions, now: Date): Promise<{ index: number; reason: WinnerReason } | null> {
  const figures = await variantFigures(tx, broadcast.id, broadcast.variants.length);
  const groups = figures.map((f) => metricGroup(f, broadcast.winner_metric));
  const winner = pickWinner(groups);
  const saved = await tx.query(
    `UPDATE broadcasts SET winner_variant = $2, winner_reason = $3, winner_figures = $4::jsonb, winner_picked_at = $5
     WHERE id = $1 AND status = 'sending' AND winner_variant IS NULL RETURNING id`,
    [broadcast.id, winner.index, winner.reason, JSON.stringify(groups.map((g) => ({ clients: g.clients, hits: g.converted }))), now.toISOString()],
  );
  if (saved.length === 0) return null;
  await tx.query("UPDATE broadcast_recipients SET status = 'pending', variant = $2 WHERE broadcast_id = $1 AND status = 'waiting'", [
    broadcast.id,
    winner.index,
  ]);
  // The rest's window starts when they are sent to (a push's own time replaces it then).
  await tx.query('UPDATE message_outcomes SET sent_at = $2 WHERE broadcast_id = $1 AND NOT held_out AND variant IS NULL AND push_id IS NULL', [
    broadcast.id,
    now.toISOString(),
  ]);
  await recordAudit(tx, {
    staff: null,
    ip: null,
    at: now,
    action: 'broadcast.winner',
    target_type: 'broadcast',
    target_id: broadcast.id,
    before: null,
    after: { winner: winner.index, reason: winner.reason, metric: broadcast.winner_metric, versions: groups },
  });
  return winner;
}
