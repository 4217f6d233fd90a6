import type { ClientFilter } from '@contract/clientFilter';
import type { Queryable } from '../db/client';
import { splitBroadcastAudience } from '../outcomes/audience';
import { FIX_CHUNK, finishFixing, insertRecipientsChunk, setFixingAfter } from './recipientQueries';
import { assignVariants } from './variantQueries';

/**
 * One chunk of a large broadcast's recipients, by client id after `after` (the filter as of `at`,
 * the moment it was sent): answers the last id fixed, or null when this was the last chunk, in
 * which case the holdout is drawn (as of `sentAt`, when it goes out), the versions of its text dealt,
 * and the broadcast's `recipients`
 * becomes the exact count of those it sends to.
 */
export async function fixRecipientsChunk(tx: Queryable, id: number, filter: ClientFilter, at: Date, after: number, sentAt: Date): Promise<number | null> {
  const row = await insertRecipientsChunk(tx, id, filter, at, after);
  if (row.n === FIX_CHUNK) {
    await setFixingAfter(tx, id, Number(row.last));
    return Number(row.last);
  }
  // All fixed: the holdout is drawn over the whole audience, then `recipients` is who will be sent to.
  await splitBroadcastAudience(tx, id, sentAt);
  await assignVariants(tx, id);
  await finishFixing(tx, id);
  return null;
}
