import type { Queryable } from '../db/client';
import { localDay } from '../lib/localTime';

/** Why a push in flight when its server stopped is not sent again (the push record's reason). */
export const IN_DOUBT_REASON = 'The server stopped while this push was being sent: it may have been delivered, so it is not sent again';

/**
 * A batch a stopped worker (a crash, a lost lease) left 'sending', read at the start of the next run:
 * - a recipient whose push record was never written was not sent: pending again, its cap slot given back;
 * - a retry whose push was not marked as leaving: retrying again, as it was;
 * - a push marked as leaving (its request may have reached FCM) is not sent twice: `failed` with
 *   the reason `interrupted`, and its record says so.
 * Three statements whatever the batch's size.
 */
export async function recoverInterrupted(tx: Queryable, broadcastId: number, now: Date, timeZone: string): Promise<void> {
  const [left] = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM broadcast_recipients WHERE broadcast_id = $1 AND status = 'sending'", [
    broadcastId,
  ]);
  if (!left || Number(left.n) === 0) return;
  await tx.query(
    `WITH stopped AS (
       SELECT r.client_id, r.push_id AS retried, p.id AS push_id, p.status AS push_status
       FROM broadcast_recipients r
       LEFT JOIN pushes p ON p.idempotency_key = r.client_id || ':broadcast:' || r.broadcast_id
       WHERE r.broadcast_id = $1 AND r.status = 'sending'
     ), doubted AS (
       UPDATE pushes p SET status = 'failed', reason = $3, finished_at = $2
       FROM stopped s WHERE p.id = s.push_id AND s.push_status = 'sending'
       RETURNING p.id
     ), slots AS (
       UPDATE automated_push_days d SET sent = d.sent - 1
       FROM stopped s WHERE s.push_id IS NULL AND d.client_id = s.client_id AND d.local_day = $4 AND d.sent > 0
       RETURNING d.client_id
     )
     UPDATE broadcast_recipients r SET
       status = CASE WHEN s.push_status = 'sending' THEN 'failed' WHEN s.retried IS NOT NULL THEN 'retrying' ELSE 'pending' END,
       failure = CASE WHEN s.push_status = 'sending' THEN 'interrupted' ELSE r.failure END,
       push_id = COALESCE(r.push_id, s.push_id),
       attempts = CASE WHEN s.push_status = 'sending' THEN r.attempts ELSE r.attempts - 1 END
     FROM stopped s WHERE r.broadcast_id = $1 AND r.client_id = s.client_id`,
    [broadcastId, now.toISOString(), IN_DOUBT_REASON, localDay(now, timeZone)],
  );
}
