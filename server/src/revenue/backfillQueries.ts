import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable } from '../db/client';

const BackfillRow = z.object({
  job_id: z.number().nullable(),
  state: z.string(),
  last_client_id: z.number(),
  clients_done: z.number(),
  clients_total: z.number(),
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
});
const CountRow = z.object({ n: z.number() });
const ClientIdRow = z.object({ client_id: z.number() });

/** The one progress row, or undefined before the first backfill. */
export async function backfillRow(database: Queryable) {
  const [row] = await database.rows(BackfillRow, 'SELECT * FROM revenue_backfill WHERE id = 1');
  return row;
}

/** The progress row when it is this job's. */
export async function backfillRowOf(database: Queryable, jobId: number) {
  const [row] = await database.rows(BackfillRow, 'SELECT * FROM revenue_backfill WHERE id = 1 AND job_id = $1', [jobId]);
  return row;
}

export async function clientsWithEvents(database: Queryable): Promise<number> {
  const [row] = await database.rows(CountRow, `SELECT count(DISTINCT client_id)::int AS n FROM revenuecat_events WHERE client_id IS NOT NULL`);
  return row!.n;
}

/** The job starts over: running, nothing done yet, `total` clients to go. */
export async function beginBackfill(database: Queryable, jobId: number, total: number, at: Date) {
  await database.execute(
    `INSERT INTO revenue_backfill (id, job_id, state, last_client_id, clients_done, clients_total, started_at, finished_at)
       VALUES (1, $1, 'running', 0, 0, $2, $3, NULL)
       ON CONFLICT (id) DO UPDATE SET job_id = $1, state = 'running', last_client_id = 0, clients_done = 0, clients_total = $2, started_at = $3, finished_at = NULL`,
    [jobId, total, at.toISOString()],
  );
}

/** The next clients with events after client `after`, in id order. */
export async function nextClientsWithEvents(database: Queryable, after: number, batchSize: number): Promise<number[]> {
  const batch = await database.rows(ClientIdRow, `SELECT DISTINCT client_id FROM revenuecat_events WHERE client_id > $1 ORDER BY client_id LIMIT $2`, [
    after,
    batchSize,
  ]);
  return batch.map((row) => row.client_id);
}

export async function noteBackfillProgress(database: Queryable, lastClientId: number, done: number) {
  await database.execute('UPDATE revenue_backfill SET last_client_id = $1, clients_done = $2 WHERE id = 1', [lastClientId, done]);
}

export async function finishBackfill(database: Queryable, at: Date) {
  await database.execute(`UPDATE revenue_backfill SET state = 'done', finished_at = $1, clients_total = greatest(clients_total, clients_done) WHERE id = 1`, [
    at.toISOString(),
  ]);
}

export async function failBackfill(database: Queryable, jobId: number, at: Date) {
  await database.execute(`UPDATE revenue_backfill SET state = 'failed', finished_at = $2 WHERE id = 1 AND job_id = $1`, [jobId, at.toISOString()]);
}

/** A backfill job just queued: running, from the start. */
export async function queueBackfill(database: Queryable, jobId: number, at: Date) {
  await database.execute(
    `INSERT INTO revenue_backfill (id, job_id, state, clients_total, started_at) VALUES (1, $1, 'running', 0, $2)
       ON CONFLICT (id) DO UPDATE SET job_id = $1, state = 'running', last_client_id = 0, clients_done = 0, clients_total = 0, started_at = $2, finished_at = NULL`,
    [jobId, at.toISOString()],
  );
}
