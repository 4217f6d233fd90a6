import type { Database } from '../db/client';
import { MindbodyError, type MindbodyApi } from '../integrations/mindbody';
import type { Clock } from '../types';
import { callDay, createCallBudget } from './callBudget';
import { attachDebugRecords, upsertClients } from './clientImport';
import {
  addCalls,
  callsOnDay,
  failInterruptedRuns,
  failRun,
  finishListing,
  recordPage,
  recordVisits,
  saveResumePoint,
  setResumeOffset,
  setRunCalls,
  startRun,
  succeedRun,
  syncState,
} from './syncQueries';
import { markVisitsDue } from './visitQueries';
import { importDueVisits } from './visits';
import { scrubText } from '../lib/inputText';

export const MINDBODY_SYNC = 'mindbody.sync';
// Mindbody's lastModifiedDate has no stated time zone: a day of overlap cannot miss a change,
// and re-reading a day of changes costs a page or two.
export const MODIFIED_OVERLAP_MS = 24 * 3_600_000;

export interface SyncDeps {
  database: Database;
  mindbody: MindbodyApi;
  clock: Clock;
  /** Days of class visits to import per client; 0 skips visits. */
  visitsDays: number;
  /** MINDBODY_DAILY_CALL_LIMIT: the most Mindbody calls per UTC day, all sites together. */
  callLimit: number;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface SyncOptions {
  /** Ignore the watermark and list every client (a resumed listing is dropped). */
  full?: boolean;
  siteIds?: readonly number[];
  jobId?: number;
  signal?: AbortSignal;
  /** Called after every page (a job extends its lease here). */
  onPage?: () => Promise<void>;
}

export interface SiteSyncResult {
  site_id: number;
  run_id: number;
  status: 'succeeded' | 'failed';
  kind: 'full' | 'incremental';
  clients_seen: number;
  clients_created: number;
  clients_updated: number;
  clients_merged: number;
  visits_imported: number;
  visits_deferred: number;
  calls: number;
  error: string | null;
}

/** Imports every configured site in turn; one site failing does not stop the others. */
export async function syncMindbody(deps: SyncDeps, options: SyncOptions = {}): Promise<SiteSyncResult[]> {
  const results: SiteSyncResult[] = [];
  for (const siteId of options.siteIds ?? deps.mindbody.siteIds) results.push(await syncSite(deps, siteId, options));
  return results;
}

async function syncSite(deps: SyncDeps, siteId: number, options: SyncOptions): Promise<SiteSyncResult> {
  const { database, mindbody, clock } = deps;
  const now = clock.now();
  // The sync runs as a singleton job: a run still marked running was cut off (crash, deploy).
  await failInterruptedRuns(database, siteId, now);
  const state = await syncState(database, siteId);
  const resuming = !options.full && state?.resume_offset !== null && state?.resume_offset !== undefined;
  const watermark = state?.watermark ?? null;
  const since = resuming ? state!.resume_since : options.full || !watermark ? null : new Date(watermark.getTime() - MODIFIED_OVERLAP_MS);
  // The listing's start time becomes the next watermark once it completes, even across resumes.
  const listingStartedAt = resuming ? (state!.resume_started_at ?? now) : now;
  const startOffset = resuming ? state!.resume_offset! : 0;
  const kind: SiteSyncResult['kind'] = since ? 'incremental' : 'full';

  const runId = await startRun(database, { siteId, jobId: options.jobId ?? null, kind, since, startOffset, now });
  await saveResumePoint(database, siteId, startOffset, since, listingStartedAt);

  const day = callDay(now);
  const budget = createCallBudget(deps.callLimit, await callsOnDay(database, day));
  let recordedCalls = 0;
  const recordCalls = async () => {
    await addCalls(database, day, budget.spent() - recordedCalls);
    recordedCalls = budget.spent();
    await setRunCalls(database, runId, recordedCalls);
  };

  const totals = { clients_seen: 0, clients_created: 0, clients_updated: 0, clients_merged: 0, visits_imported: 0, visits_deferred: 0 };
  const fail = async (error: unknown): Promise<SiteSyncResult> => {
    const message = describe(error);
    await recordCalls();
    await failRun(database, runId, clock.now(), message);
    deps.log?.warn({ site: siteId, run: runId, err: message }, 'Mindbody import failed; the next run continues where it stopped');
    return { site_id: siteId, run_id: runId, status: 'failed' as const, kind, ...totals, calls: budget.spent(), error: message };
  };
  try {
    for await (const listed of mindbody.clientPages(siteId, { modifiedSince: since, offset: startOffset, signal: options.signal, meter: budget })) {
      // A Mindbody record holding text the database cannot store is cleaned, not refused: a refusal would stop every import at that page.
      const page = { ...listed, clients: scrubText(listed.clients) };
      const pageTime = clock.now();
      const upserted = await upsertClients(database, siteId, page.clients, pageTime);
      if (deps.visitsDays > 0) await markVisitsDue(database, [...upserted.ids.values()], pageTime);
      await attachDebugRecords(database, [...upserted.ids.values()], pageTime);

      totals.clients_seen += page.clients.length;
      totals.clients_created += upserted.created;
      totals.clients_updated += upserted.updated;
      totals.clients_merged += upserted.merged;
      await recordPage(database, runId, {
        seen: page.clients.length,
        created: upserted.created,
        updated: upserted.updated,
        merged: upserted.merged,
        total: page.total,
        nextOffset: page.nextOffset,
      });
      await recordCalls();
      // What is imported stays imported: a failure after this page resumes at the next one.
      await setResumeOffset(database, siteId, page.nextOffset);
      await options.onPage?.();
    }
  } catch (error) {
    return fail(error);
  }

  await finishListing(database, siteId, listingStartedAt);
  if (deps.visitsDays > 0) {
    try {
      // After the listing, so a short budget never starves it; clients left over wait for a later run.
      const visits = await importDueVisits(deps, siteId, budget, {
        signal: options.signal,
        afterClient: async () => {
          await recordCalls();
          await options.onPage?.();
        },
      });
      totals.visits_imported = visits.visits;
      totals.visits_deferred = visits.deferred;
      totals.clients_merged += visits.merged;
      await recordVisits(database, runId, visits);
    } catch (error) {
      return fail(error);
    }
  }
  await recordCalls();
  await succeedRun(database, runId, clock.now());
  deps.log?.info({ site: siteId, run: runId, ...totals, calls: budget.spent() }, 'Mindbody import finished');
  return { site_id: siteId, run_id: runId, status: 'succeeded', kind, ...totals, calls: budget.spent(), error: null };
}

function describe(error: unknown): string {
  if (error instanceof MindbodyError) return error.message;
  // Anything else is ours (database, bug): keep it short and free of SQL.
  const message = error instanceof Error ? error.message : String(error);
  return `Import error: ${message.split('\n')[0]!.slice(0, 300)}`;
}
