import type { FastifyInstance } from 'fastify';
import type { BackfillState } from '@contract/revenue';
import type { Database } from '../db/client';
import type { RunningJob } from '../jobs/queue';
import {
  backfillRow,
  backfillRowOf,
  beginBackfill,
  clientsWithEvents,
  failBackfill,
  finishBackfill,
  nextClientsWithEvents,
  noteBackfillProgress,
  queueBackfill,
} from './backfillQueries';
import { refreshRevenue } from './keep';

export const REVENUE_BACKFILL = 'revenue.backfill';
const BATCH = 200;

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export async function backfillState(database: Database): Promise<BackfillState> {
  const row = await backfillRow(database);
  if (!row) return { job_id: null, state: 'never', clients_done: 0, clients_total: 0, started_at: null, finished_at: null };
  return {
    job_id: row.job_id,
    state: row.state as BackfillState['state'],
    clients_done: row.clients_done,
    clients_total: row.clients_total,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

/**
 * Recomputes every client with stored events, in client id order, a batch per transaction. The
 * progress row says which client it reached, so a job retried after a crash or a deploy resumes there.
 */
export async function runBackfill(database: Database, now: () => Date, job: Pick<RunningJob, 'id' | 'heartbeat' | 'signal'>, batchSize = BATCH) {
  const row = await backfillRowOf(database, job.id);
  const resuming = row !== undefined && row.state === 'running' && row.last_client_id > 0;
  let after = resuming ? row.last_client_id : 0;
  let done = resuming ? row.clients_done : 0;
  if (!resuming) {
    await beginBackfill(database, job.id, await clientsWithEvents(database), now());
  }
  for (;;) {
    if (job.signal.aborted) throw new Error('The server shut down during the backfill; it resumes where it stopped.');
    const ids = await nextClientsWithEvents(database, after, batchSize);
    if (ids.length === 0) break;
    await refreshRevenue(database, ids);
    after = ids[ids.length - 1]!;
    done += ids.length;
    await noteBackfillProgress(database, after, done);
    await job.heartbeat();
  }
  await finishBackfill(database, now());
  return { clients: done };
}

export function registerRevenueJobs(app: FastifyInstance) {
  app.jobs.define(REVENUE_BACKFILL, (job) => runBackfill(app.database, () => app.clock.now(), job), {
    maxAttempts: 10,
    backoffMs: 10_000,
    lane: 'sync',
    onFailed: async (job) => {
      await failBackfill(app.database, job.id, app.clock.now());
    },
  });
}

/** Starts a backfill unless one is queued or running. */
export async function startBackfill(app: FastifyInstance): Promise<BackfillState> {
  const { id, created } = await app.jobs.send(REVENUE_BACKFILL, {}, { singletonKey: 'all' });
  if (created) {
    await queueBackfill(app.database, id, app.clock.now());
  }
  return backfillState(app.database);
}
