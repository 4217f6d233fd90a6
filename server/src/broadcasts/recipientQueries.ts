import type { ClientFilter } from '@contract/clientFilter';
import { z } from 'zod';
import { clientFilterWhere, selectTargetClients } from '../clients/filterQueries';
import type { Queryable } from '../db/client';

/** The statements that fix who a broadcast goes to (recipients.ts). */

/** Recipients fixed per chunk by the job, each chunk in its own transaction. */
export const FIX_CHUNK = 5000;

const CountRow = z.object({ n: z.number() });
const ChunkRow = z.object({ n: z.number(), last: z.number().nullable(), added: z.number() });

/** Fixes who a broadcast goes to at once: the clients its filter selects now, or the picked ones that exist. */
export async function insertRecipients(tx: Queryable, id: number, target: { filter?: ClientFilter; clientIds?: number[] }, now: Date): Promise<number> {
  const { select, params } = selectTargetClients(id, target, now);
  const [row] = await tx.rows(
    CountRow,
    `WITH added AS (INSERT INTO broadcast_recipients (broadcast_id, client_id) ${select} RETURNING 1) SELECT count(*)::int AS n FROM added`,
    params,
  );
  return row!.n;
}

/** Adds up to FIX_CHUNK of the filter's clients (as of `at`) after client id `after`: how many it picked and the last id. */
export async function insertRecipientsChunk(
  tx: Queryable,
  id: number,
  filter: ClientFilter,
  at: Date,
  after: number,
): Promise<{ n: number; last: number | null }> {
  const where = clientFilterWhere([filter], at);
  where.parts.push(`c.id > ${where.param(after)}`);
  const broadcast = where.param(id);
  const [row] = await tx.rows(
    ChunkRow,
    `WITH picked AS (SELECT c.id FROM clients c ${where} ORDER BY c.id LIMIT ${FIX_CHUNK}),
          added AS (INSERT INTO broadcast_recipients (broadcast_id, client_id) SELECT ${broadcast}::bigint, id FROM picked ON CONFLICT DO NOTHING RETURNING 1)
     SELECT (SELECT count(*) FROM picked)::int AS n, (SELECT max(id) FROM picked) AS last, (SELECT count(*) FROM added) AS added`,
    where.params,
  );
  return row!;
}

export const setFixingAfter = (tx: Queryable, id: number, last: number) => tx.execute('UPDATE broadcasts SET fixing_after = $2 WHERE id = $1', [id, last]);

/** All fixed: `recipients` becomes the exact count. */
export const finishFixing = (tx: Queryable, id: number) =>
  tx.execute('UPDATE broadcasts SET fixing_after = NULL, recipients = (SELECT count(*) FROM broadcast_recipients WHERE broadcast_id = $1) WHERE id = $1', [id]);
