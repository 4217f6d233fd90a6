import { z } from 'zod';
import type { Queryable } from '../db/client';
import { holdoutDrawSql, variantSeed } from '../outcomes/rules';

/**
 * Versions of a broadcast's text (docs/automation.md#versions-a-test-then-the-winner). Once the
 * holdout is out, the clients sent to are ordered by their draw from the broadcast's variant seed
 * (reproducible, and independent of who was held out); the first round(n × test_percent / 100) are
 * the test part, dealt to the versions in turn (A, B, C, A, …), so each version gets an equal share
 * (one more at most). The others wait ('waiting') for the winner.
 */
export async function assignVariants(tx: Queryable, broadcastId: number): Promise<void> {
  await tx.execute(
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

const FiguresRow = z.object({ variant: z.number(), clients: z.number(), sent: z.number(), opened: z.number(), converted: z.number() });
const IdRow = z.object({ id: z.number() });

export type VariantFigures = Omit<z.infer<typeof FiguresRow>, 'variant'>;

/** Each version's figures in the test part, in version order (a version nobody got: zeros). */
export async function variantFigures(db: Queryable, broadcastId: number, versions: number): Promise<VariantFigures[]> {
  const rows = await db.rows(
    FiguresRow,
    `SELECT variant, count(*)::int AS clients, count(*) FILTER (WHERE push_status IN ('sent', 'queued'))::int AS sent,
            count(opened_at)::int AS opened, count(converted_at)::int AS converted
     FROM message_outcomes WHERE broadcast_id = $1 AND NOT held_out AND variant IS NOT NULL GROUP BY variant`,
    [broadcastId],
  );
  return Array.from({ length: versions }, (_, index) => {
    const row = rows.find((r) => r.variant === index);
    return { clients: row?.clients ?? 0, sent: row?.sent ?? 0, opened: row?.opened ?? 0, converted: row?.converted ?? 0 };
  });
}

/** Records the winner and the figures it was picked on; false when the broadcast is no longer sending or has a winner already. */
export async function saveWinner(
  tx: Queryable,
  broadcastId: number,
  winner: { index: number; reason: string },
  groups: { clients: number; converted: number }[],
  now: Date,
): Promise<boolean> {
  const saved = await tx.rows(
    IdRow,
    `UPDATE broadcasts SET winner_variant = $2, winner_reason = $3, winner_figures = $4::jsonb, winner_picked_at = $5
     WHERE id = $1 AND status = 'sending' AND winner_variant IS NULL RETURNING id`,
    [broadcastId, winner.index, winner.reason, JSON.stringify(groups.map((g) => ({ clients: g.clients, hits: g.converted }))), now.toISOString()],
  );
  return saved.length > 0;
}

/** The rest get the winner's version and are pending again; their window starts `now` (a push's own time replaces it then). */
export async function releaseWaiting(tx: Queryable, broadcastId: number, winner: number, now: Date): Promise<void> {
  await tx.execute("UPDATE broadcast_recipients SET status = 'pending', variant = $2 WHERE broadcast_id = $1 AND status = 'waiting'", [broadcastId, winner]);
  await tx.execute('UPDATE message_outcomes SET sent_at = $2 WHERE broadcast_id = $1 AND NOT held_out AND variant IS NULL AND push_id IS NULL', [
    broadcastId,
    now.toISOString(),
  ]);
}
