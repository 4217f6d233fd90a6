import type { Queryable } from '../db/client';
import { localDay } from '../lib/localTime';
import { releaseStopped } from './sendQueries';

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
  return releaseStopped(tx, broadcastId, localDay(now, timeZone));
}
