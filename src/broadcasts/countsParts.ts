import type { Broadcast } from '@contract/broadcasts';

export type CountPart = { key: 'sent' | 'failed' | 'skipped' | 'retrying' | 'pending' | 'waiting' | 'not_sent'; n: number; reasons: [string, number][] };

/**
 * Which of a broadcast's counts to show, in order. Sent, failed and skipped always (with their
 * reasons); retrying while any wait; pending only while it can still be sent; the rest of a broadcast
 * with versions while it waits for the winner; a cancelled
 * broadcast's unsent recipients as 'not sent', never as pending. Together they add up to its recipients.
 */
export function countsParts(broadcast: Pick<Broadcast, 'status' | 'counts'>): CountPart[] {
  const { counts } = broadcast;
  const open = broadcast.status === 'sending' || broadcast.status === 'scheduled';
  const parts: CountPart[] = [
    { key: 'sent', n: counts.sent, reasons: [] },
    { key: 'failed', n: counts.failed, reasons: Object.entries(counts.failed_by_reason ?? {}) },
    { key: 'skipped', n: counts.skipped, reasons: Object.entries(counts.skipped_by_reason) },
  ];
  if (counts.retrying > 0) parts.push({ key: 'retrying', n: counts.retrying, reasons: [] });
  if (open || counts.pending > 0) parts.push({ key: 'pending', n: counts.pending, reasons: [] });
  if (counts.waiting > 0) parts.push({ key: 'waiting', n: counts.waiting, reasons: [] });
  if (broadcast.status === 'cancelled' || counts.not_sent > 0) parts.push({ key: 'not_sent', n: counts.not_sent, reasons: [] });
  return parts;
}
