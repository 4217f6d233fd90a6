import { z } from 'zod';
import { timestamp } from '../db/rows';
import { MindbodySyncRun } from '@contract/mindbody';
import type { Queryable } from '../db/client';

/** The import's bookkeeping: Mindbody calls per day, each run's progress and outcome, each site's watermark and resume point. */

const Calls = z.object({ calls: z.number() });

export async function callsOnDay(database: Queryable, day: string): Promise<number> {
  const [row] = await database.rows(Calls, 'SELECT calls FROM mindbody_call_days WHERE day = $1', [day]);
  return row ? row.calls : 0;
}

export async function addCalls(database: Queryable, day: string, calls: number): Promise<void> {
  if (calls <= 0) return;
  await database.execute(
    `INSERT INTO mindbody_call_days (day, calls) VALUES ($1, $2)
     ON CONFLICT (day) DO UPDATE SET calls = mindbody_call_days.calls + EXCLUDED.calls`,
    [day, calls],
  );
}

/** A run still marked running was cut off (crash, deploy): the sync runs as a singleton job. */
export const failInterruptedRuns = (database: Queryable, siteId: number, now: Date) =>
  database.execute(
    `UPDATE mindbody_sync_runs SET status = 'failed', finished_at = $2, error = COALESCE(error, 'interrupted before it finished')
     WHERE site_id = $1 AND status = 'running'`,
    [siteId, now.toISOString()],
  );

const SyncState = z.object({
  watermark: timestamp.nullable(),
  resume_offset: z.number().nullable(),
  resume_since: timestamp.nullable(),
  resume_started_at: timestamp.nullable(),
});
export type SyncState = z.infer<typeof SyncState>;

export async function syncState(database: Queryable, siteId: number): Promise<SyncState | undefined> {
  const [state] = await database.rows(
    SyncState,
    'SELECT watermark, resume_offset, resume_since, resume_started_at FROM mindbody_sync_state WHERE site_id = $1',
    [siteId],
  );
  return state;
}

const Id = z.object({ id: z.number() });

export async function startRun(
  database: Queryable,
  run: { siteId: number; jobId: number | null; kind: 'full' | 'incremental'; since: Date | null; startOffset: number; now: Date },
): Promise<number> {
  const [row] = await database.rows(
    Id,
    `INSERT INTO mindbody_sync_runs (site_id, job_id, kind, modified_since, start_offset, started_at, next_offset)
     VALUES ($1, $2, $3, $4, $5, $6, $5) RETURNING id`,
    [run.siteId, run.jobId, run.kind, run.since?.toISOString() ?? null, run.startOffset, run.now.toISOString()],
  );
  return row!.id;
}

/** Where the listing resumes if this run stops: its offset, its modified-since and its start time (the next watermark). */
export const saveResumePoint = (database: Queryable, siteId: number, offset: number, since: Date | null, listingStartedAt: Date) =>
  database.execute(
    `INSERT INTO mindbody_sync_state (site_id, resume_offset, resume_since, resume_started_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (site_id) DO UPDATE SET resume_offset = $2, resume_since = $3, resume_started_at = $4`,
    [siteId, offset, since?.toISOString() ?? null, listingStartedAt.toISOString()],
  );

export const setRunCalls = (database: Queryable, runId: number, calls: number) =>
  database.execute('UPDATE mindbody_sync_runs SET calls = $2 WHERE id = $1', [runId, calls]);

export const failRun = (database: Queryable, runId: number, at: Date, message: string) =>
  database.execute(`UPDATE mindbody_sync_runs SET status = 'failed', finished_at = $2, error = $3 WHERE id = $1`, [runId, at.toISOString(), message]);

export const recordPage = (
  database: Queryable,
  runId: number,
  page: { seen: number; created: number; updated: number; merged: number; total: number | null; nextOffset: number | null },
) =>
  database.execute(
    `UPDATE mindbody_sync_runs SET pages = pages + 1, clients_seen = clients_seen + $2, clients_created = clients_created + $3,
            clients_updated = clients_updated + $4, clients_merged = clients_merged + $5, total_clients = $6, next_offset = $7
     WHERE id = $1`,
    [runId, page.seen, page.created, page.updated, page.merged, page.total, page.nextOffset],
  );

export const setResumeOffset = (database: Queryable, siteId: number, offset: number | null) =>
  database.execute('UPDATE mindbody_sync_state SET resume_offset = $2 WHERE site_id = $1', [siteId, offset]);

/** The listing completed: its start time is the next watermark, and nothing is left to resume. */
export const finishListing = (database: Queryable, siteId: number, listingStartedAt: Date) =>
  database.execute(`UPDATE mindbody_sync_state SET watermark = $2, resume_offset = NULL, resume_since = NULL, resume_started_at = NULL WHERE site_id = $1`, [
    siteId,
    listingStartedAt.toISOString(),
  ]);

export const recordVisits = (database: Queryable, runId: number, visits: { visits: number; errors: number; deferred: number; merged: number }) =>
  database.execute(
    `UPDATE mindbody_sync_runs SET visits_imported = $2, visit_errors = $3, visits_deferred = $4, clients_merged = clients_merged + $5 WHERE id = $1`,
    [runId, visits.visits, visits.errors, visits.deferred, visits.merged],
  );

export const succeedRun = (database: Queryable, runId: number, at: Date) =>
  database.execute(`UPDATE mindbody_sync_runs SET status = 'succeeded', finished_at = $2, next_offset = NULL WHERE id = $1`, [runId, at.toISOString()]);

/** A run as the contract gives it, with the database's timestamps. */
const RunRow = MindbodySyncRun.extend({ started_at: timestamp, finished_at: timestamp.nullable(), modified_since: timestamp.nullable() });
export type RunRow = z.infer<typeof RunRow>;

/** Each site's most recent run. */
export function latestRuns(database: Queryable, siteIds: readonly number[]): Promise<RunRow[]> {
  const columns = `id, site_id, kind, status, started_at, finished_at, modified_since, total_clients, pages, clients_seen,
                   clients_created, clients_updated, clients_merged, visits_imported, visit_errors, visits_deferred, calls, next_offset, error`;
  return database.rows(
    RunRow,
    `SELECT DISTINCT ON (site_id) ${columns} FROM mindbody_sync_runs WHERE site_id = ANY($1::int[]) ORDER BY site_id, started_at DESC, id DESC`,
    [siteIds],
  );
}

const LastSuccess = z.object({ site_id: z.number(), finished_at: timestamp });

/** Each site's last successful import, by when it finished. */
export const lastSuccesses = (database: Queryable, siteIds: readonly number[]) =>
  database.rows(
    LastSuccess,
    `SELECT site_id, max(finished_at) AS finished_at FROM mindbody_sync_runs
     WHERE site_id = ANY($1::int[]) AND status = 'succeeded' GROUP BY site_id`,
    [siteIds],
  );

const Waiting = z.object({ site_id: z.number(), n: z.number() });

/** Per site, how many clients' visits wait for a later run. */
export const visitsWaiting = (database: Queryable, siteIds: readonly number[]) =>
  database.rows(
    Waiting,
    `SELECT mb_site_id AS site_id, count(*)::int AS n FROM clients WHERE mb_site_id = ANY($1::int[]) AND mb_visits_due_since IS NOT NULL GROUP BY mb_site_id`,
    [siteIds],
  );
