import type { Broadcast, BroadcastStatus } from '@contract/broadcasts';

export interface RecipientCount {
  broadcast_id: number;
  status: string;
  /** skip_reason of a skipped recipient, failure of a failed (or retrying) one. */
  reason: string | null;
  n: number;
}

/**
 * A broadcast's counts from its recipients' rows, so they add up at every moment:
 * sent + failed + skipped + pending + retrying + waiting + not_sent = recipients. In flight counts as pending;
 * `waiting` are the rest of a broadcast with versions of its text, until the winner is picked.
 * A cancelled broadcast sends nothing more: what it had not sent (pending, waiting to retry or for the
 * winner, or never fixed for a draft) is `not_sent`. A draft has no rows yet: all zero.
 */
export function recipientCounts(rows: readonly RecipientCount[], status: BroadcastStatus, recipients: number, fixing = false): Broadcast['counts'] {
  const total = (...statuses: string[]) => rows.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + Number(row.n), 0);
  const byReason = (of: string) => {
    const reasons: Record<string, number> = {};
    for (const row of rows.filter((r) => r.status === of)) reasons[row.reason ?? 'other'] = (reasons[row.reason ?? 'other'] ?? 0) + Number(row.n);
    return reasons;
  };
  const done = { sent: total('sent'), failed: total('failed'), skipped: total('skipped') };
  // Recipients still being fixed (a large filter, in the background) are pending, by the estimate.
  const unfixed = fixing ? Math.max(0, recipients - total('pending', 'sending', 'retrying', 'waiting', 'sent', 'failed', 'skipped')) : 0;
  const cancelled = status === 'cancelled';
  return {
    ...done,
    pending: cancelled ? 0 : total('pending', 'sending') + unfixed,
    retrying: cancelled ? 0 : total('retrying'),
    waiting: cancelled ? 0 : total('waiting'),
    // A draft cancelled before its recipients were fixed has no rows: all of them were not sent.
    not_sent: cancelled ? Math.max(0, recipients - done.sent - done.failed - done.skipped) : 0,
    skipped_by_reason: byReason('skipped'),
    failed_by_reason: byReason('failed'),
  };
}
