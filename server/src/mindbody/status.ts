import type { MindbodySyncRun, MindbodySyncStatus } from '@contract/mindbody';
import type { Database } from '../db/client';
import { callDay } from './callBudget';
import { callsOnDay, lastSuccesses, latestRuns, visitsWaiting, type RunRow } from './syncQueries';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

function toRun(row: RunRow): MindbodySyncRun {
  return { ...row, started_at: row.started_at.toISOString(), finished_at: iso(row.finished_at), modified_since: iso(row.modified_since) };
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
  const latest = await latestRuns(database, siteIds);
  const succeeded = await lastSuccesses(database, siteIds);
  const waiting = await visitsWaiting(database, siteIds);
  const sites = siteIds.map((siteId) => {
    const run = latest.find((row) => row.site_id === siteId);
    const success = succeeded.find((row) => row.site_id === siteId);
    const deferred = waiting.find((row) => row.site_id === siteId)?.n ?? 0;
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
