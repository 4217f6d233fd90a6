import type { Variant } from '@contract/broadcasts';
import type { WinnerMetric, WinnerReason } from '@contract/outcomeRules';
import { recordAudit } from '../audit/record';
import type { Queryable } from '../db/client';
import { pickWinner, type Group } from '../outcomes/rules';
import { releaseWaiting, saveWinner, variantFigures, type VariantFigures } from './variantQueries';

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
  if (!(await saveWinner(tx, broadcast.id, winner, groups, now))) return null;
  // The rest's window starts when they are sent to (a push's own time replaces it then).
  await releaseWaiting(tx, broadcast.id, winner.index, now);
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
