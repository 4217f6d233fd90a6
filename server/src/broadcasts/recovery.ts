import type { Queryable } from '../db/client';
import { localDay } from '../lib/localTime';

/**
 * Why a push that may have left before its server stopped is not sent again: only when its client
 * no longer has a device token to send the same message to (the push record's reason).
 */
export const IN_DOUBT_REASON = 'The server stopped while this push was being sent and the client has no device token left to send it again';

/**
 * A batch a stopped worker (a crash, a lost lease) left 'sending', read at the start of the next run:
 * every recipient in it is claimed again, as it was before the batch (pending, or retrying for a
 * retry) with its cap slot given back (taken again by the next claim). The attempt counts: its
 * request may have gone out, and the next claim looks for a record written before the stop only then. Its push record stays: the next
 * batch finds it and sends the same message again with the same collapse key (send.ts), so a device
 * that got it before the stop shows it once: at least once to FCM, once on the device
 * (docs/automation.md#broadcasts). One statement whatever the batch's size.
 */
export async function recoverInterrupted(tx: Queryable, broadcastId: number, now: Date, timeZone: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
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
    [broadcastId, localDay(now, timeZone)],
  );
  return Number(row?.n ?? 0);
}
