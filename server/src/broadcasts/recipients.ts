import type { ClientFilter } from '@contract/clientFilter';
import { clientFilterWhere } from '../clients/filterQueries';
import type { Queryable } from '../db/client';
import { splitBroadcastAudience } from '../outcomes/audience';
import { assignVariants } from './variants';

/** Recipients fixed per chunk by the job, each chunk in its own transaction. */
export const FIX_CHUNK = 5000;

/** Fixes who a broadcast goes to at once: the clients its filter selects now, or the picked ones that exist. */
export async function insertRecipients(tx: Queryable, id: number, target: { filter?: ClientFilter; clientIds?: number[] }, now: Date): Promise<number> {
  let select: string;
  let params: unknown[];
  if (target.clientIds) {
    select = 'SELECT $1::bigint, c.id FROM clients c WHERE c.id = ANY($2::bigint[])';
    params = [id, target.clientIds];
  } else {
    const where = clientFilterWhere([target.filter ?? {}], now);
    select = `SELECT ${where.param(id)}::bigint, c.id FROM clients c ${where}`;
    params = where.params;
  }
  const [row] = await tx.query<{ n: number }>(
    `WITH added AS (INSERT INTO broadcast_recipients (broadcast_id, client_id) ${select} RETURNING 1) SELECT count(*)::int AS n FROM added`,
    params,
  );
  return Number(row!.n);
}

/**
 * One chunk of a large broadcast's recipients, by client id after `after` (the filter as of `at`,
 * the moment it was sent): answers the last id fixed, or null when this was the last chunk, in
 * which case the holdout is drawn (as of `sentAt`, when it goes out), the versions of its text dealt,
 * and the broadcast's `recipients`
 * becomes the exact count of those it sends to.
 */
export async function fixRecipientsChunk(tx: Queryable, id: number, filter: ClientFilter, at: Date, after: number, sentAt: Date): Promise<number | null> {
  const where = clientFilterWhere([filter], at);
  where.parts.push(`c.id > ${where.param(after)}`);
  const broadcast = where.param(id);
  const [row] = await tx.query<{ n: number; last: number | null }>(
    `WITH picked AS (SELECT c.id FROM clients c ${where} ORDER BY c.id LIMIT ${FIX_CHUNK}),
          added AS (INSERT INTO broadcast_recipients (broadcast_id, client_id) SELECT ${broadcast}::bigint, id FROM picked ON CONFLICT DO NOTHING RETURNING 1)
     SELECT (SELECT count(*) FROM picked)::int AS n, (SELECT max(id) FROM picked) AS last, (SELECT count(*) FROM added) AS added`,
    where.params,
  );
  if (Number(row!.n) === FIX_CHUNK) {
    await tx.query('UPDATE broadcasts SET fixing_after = $2 WHERE id = $1', [id, Number(row!.last)]);
    return Number(row!.last);
  }
  // All fixed: the holdout is drawn over the whole audience, then `recipients` is who will be sent to.
  await splitBroadcastAudience(tx, id, sentAt);
  await assignVariants(tx, id);
  await tx.query('UPDATE broadcasts SET fixing_after = NULL, recipients = (SELECT count(*) FROM broadcast_recipients WHERE broadcast_id = $1) WHERE id = $1', [
    id,
  ]);
  return null;
}
