import type { FastifyInstance } from 'fastify';
import type { BackfillState } from '@contract/revenue';
import type { Database } from '../db/client';
import type { RunningJob } from '../jobs/queue';
import { refreshRevenue } from './keep';

export const REVENUE_BACKFILL = 'revenue.backfill';
const BATCH = 200;

type Row = {
  job_id: number | null;
  state: string;
  last_client_id: number;
  clients_done: number;
  clients_total: number;
  started_at: Date | string | null;
  finished_at: Date | string | null;
};
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export async function backfillState(database: Database): Promise<BackfillState> {
  const [row] = await database.query<Row>('SELECT * FROM revenue_backfill WHERE id = 1');
  if (!row) return { job_id: null, state: 'never', clients_done: 0, clients_total: 0, started_at: null, finished_at: null };
  return {
    job_id: row.job_id === null ? null : Number(row.job_id),
    state: row.state as BackfillState['state'],
    clients_done: Number(row.clients_done),
    clients_total: Number(row.clients_total),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

/**
 * Recomputes every client with stored events, in client id order, a batch per transaction. The
 * progress row says which client it reached, so a job retried after a crash or a deploy resumes there.
 */
export async function runBackfill(database: Database, now: () => Date, job: Pick<RunningJob, 'id' | 'heartbeat' | 'signal'>, batchSize = BATCH) {
  const [row] = await database.query<Row>('SELECT * FROM revenue_backfill WHERE id = 1 AND job_id = $1', [job.id]);
  const resuming = row !== undefined && row.state === 'running' && Number(row.last_client_id) > 0;
  let after = resuming ? Number(row.last_client_id) : 0;
  let done = resuming ? Number(row.clients_done) : 0;
  if (!resuming) {
    const [{ n }] = (await database.query<{ n: number }>(`SELECT count(DISTINCT client_id)::int AS n FROM revenuecat_events WHERE client_id IS NOT NULL`)) as [
      { n: number },
    ];
    await database.query(
      `INSERT INTO revenue_backfill (id, job_id, state, last_client_id, clients_done, clients_total, started_at, finished_at)
       VALUES (1, $1, 'running', 0, 0, $2, $3, NULL)
       ON CONFLICT (id) DO UPDATE SET job_id = $1, state = 'running', last_client_id = 0, clients_done = 0, clients_total = $2, started_at = $3, finished_at = NULL`,
      [job.id, n, now().toISOString()],
    );
  }
  for (;;) {
    if (job.signal.aborted) throw new Error('The server shut down during the backfill; it resumes where it stopped.');
    const batch = await database.query<{ client_id: number }>(
      `SELECT DISTINCT client_id FROM revenuecat_events WHERE client_id > $1 ORDER BY client_id LIMIT $2`,
      [after, batchSize],
    );
    if (batch.length === 0) break;
    const ids = batch.map((b) => Number(b.client_id));
    await refreshRevenue(database, ids);
    after = ids[ids.length - 1]!;
    done += ids.length;
    await database.query('UPDATE revenue_backfill SET last_client_id = $1, clients_done = $2 WHERE id = 1', [after, done]);
    await job.heartbeat();
  }
  await database.query(`UPDATE revenue_backfill SET state = 'done', finished_at = $1, clients_total = greatest(clients_total, clients_done) WHERE id = 1`, [
    now().toISOString(),
  ]);
  return { clients: done };
}

export function registerRevenueJobs(app: FastifyInstance) {
  app.jobs.define(REVENUE_BACKFILL, (job) => runBackfill(app.database, () => app.clock.now(), job), {
    maxAttempts: 10,
    backoffMs: 10_000,
    lane: 'sync',
    onFailed: async (job) => {
      await app.database.query(`UPDATE revenue_backfill SET state = 'failed', finished_at = $2 WHERE id = 1 AND job_id = $1`, [
        job.id,
        app.clock.now().toISOString(),
      ]);
    },
  });
}

/** Starts a backfill unless one is queued or running. */
export async function startBackfill(app: FastifyInstance): Promise<BackfillState> {
  const { id, created } = await app.jobs.send(REVENUE_BACKFILL, {}, { singletonKey: 'all' });
  if (created) {
    await app.database.query(
      `INSERT INTO revenue_backfill (id, job_id, state, clients_total, started_at) VALUES (1, $1, 'running', 0, $2)
       ON CONFLICT (id) DO UPDATE SET job_id = $1, state = 'running', last_client_id = 0, clients_done = 0, clients_total = 0, started_at = $2, finished_at = NULL`,
      [id, app.clock.now().toISOString()],
    );
  }
  return backfillState(app.database);
}
