import type { MindbodySyncRun, MindbodySyncStatus } from '@contract/mindbody';
import type { Database } from '../db/client';
import { callDay, callsOnDay } from './callBudget';

interface RunRow extends Omit<MindbodySyncRun, 'started_at' | 'finished_at' | 'modified_since'> {
  started_at: Date | string;
  finished_at: Date | string | null;
  modified_since: Date | string | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toRun(row: RunRow): MindbodySyncRun {
  return {
    id: Number(row.id),
    site_id: Number(row.site_id),
    kind: row.kind,
    status: row.status,
    started_at: iso(row.started_at)!,
    finished_at: iso(row.finished_at),
    modified_since: iso(row.modified_since),
    total_clients: row.total_clients === null ? null : Number(row.total_clients),
    pages: Number(row.pages),
    clients_seen: Number(row.clients_seen),
    clients_created: Number(row.clients_created),
    clients_updated: Number(row.clients_updated),
    clients_merged: Number(row.clients_merged),
    visits_imported: Number(row.visits_imported),
    visit_errors: Number(row.visit_errors),
    visits_deferred: Number(row.visits_deferred),
    calls: Number(row.calls),
    next_offset: row.next_offset === null ? null : Number(row.next_offset),
    error: row.error,
  };
}

/**
 * When Mindbody was last synced, per configured site and in one line for the client lists:
 * `last_synced_at` is the oldest of the sites' last successful imports (null while any site has
 * none), `last_outcome` the outcome of the most recent run of any site.
 */
export async function mindbodySyncStatus(
  database: Database,
  mode: 'live' | 'sandbox',
  siteIds: readonly number[],
  budget: { now: Date; dailyCallLimit: number },
): Promise<MindbodySyncStatus> {
  const columns = `id, site_id, kind, status, started_at, finished_at, modified_since, total_clients, pages, clients_seen,
                   clients_created, clients_updated, clients_merged, visits_imported, visit_errors, visits_deferred, calls, next_offset, error`;
  const latest = await database.query<RunRow>(
    `SELECT DISTINCT ON (site_id) ${columns} FROM mindbody_sync_runs WHERE site_id = ANY($1::int[]) ORDER BY site_id, started_at DESC, id DESC`,
    [siteIds],
  );
  const succeeded = await database.query<{ site_id: number; finished_at: Date | string }>(
    `SELECT site_id, max(finished_at) AS finished_at FROM mindbody_sync_runs
     WHERE site_id = ANY($1::int[]) AND status = 'succeeded' GROUP BY site_id`,
    [siteIds],
  );
  const waiting = await database.query<{ site_id: number; n: number }>(
    `SELECT mb_site_id AS site_id, count(*)::int AS n FROM clients WHERE mb_site_id = ANY($1::int[]) AND mb_visits_due_since IS NOT NULL GROUP BY mb_site_id`,
    [siteIds],
  );
  const sites = siteIds.map((siteId) => {
    const run = latest.find((row) => Number(row.site_id) === siteId);
    const success = succeeded.find((row) => Number(row.site_id) === siteId);
    const deferred = Number(waiting.find((row) => Number(row.site_id) === siteId)?.n ?? 0);
    return { site_id: siteId, last_run: run ? toRun(run) : null, last_synced_at: success ? iso(success.finished_at) : null, visits_deferred: deferred };
  });
  const synced = sites.map((site) => site.last_synced_at);
  const runs = sites.map((site) => site.last_run).filter((run): run is MindbodySyncRun => run !== null);
  const newest = runs.sort((a, b) => b.started_at.localeCompare(a.started_at))[0] ?? null;
  const failed = runs.find((run) => run.status === 'failed');
  return {
    mode,
    last_synced_at: synced.length > 0 && synced.every((at) => at !== null) ? (synced as string[]).sort()[0]! : null,
    running: runs.some((run) => run.status === 'running'),
    last_outcome: newest ? (failed ? 'failed' : newest.status) : null,
    last_error: failed?.error ?? null,
    calls_today: await callsOnDay(database, callDay(budget.now)),
    daily_call_limit: budget.dailyCallLimit,
    visits_deferred: sites.reduce((sum, site) => sum + site.visits_deferred, 0),
    sites,
  };
}
