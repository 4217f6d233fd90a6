import type { FastifyInstance } from 'fastify';
import type { StartVimeoSyncResponse } from '@contract/videos';
import { VimeoError, type VimeoCatalogue } from '../integrations/vimeo';
import type { RunningJob } from '../jobs/queue';
import { ensureSyncRow, finishSync, flagMissingVideos, markSyncRunning, recordSyncProgress, upsertCataloguePage } from './syncQueries';
import { scrubText } from '../lib/inputText';
import { recordAudit, type Actor } from '../audit/record';

export const VIMEO_SYNC_QUEUE = 'vimeo.sync';
/** One queued-or-running sync at a time: the job queue's singleton rule. */
const SINGLETON = 'all';

/**
 * Reads every page of the catalogue, upserting as it goes; only a sync that read every page
 * flags the videos Vimeo no longer has. A failure is recorded on the sync with its reason.
 */
export function registerVimeoSyncJobs(app: FastifyInstance) {
  const { database, clock, vimeo: catalogue } = app;

  async function run(job: RunningJob) {
    await ensureSyncRow(database, job.id, catalogue.source, null, clock.now());
    await markSyncRunning(database, job.id, clock.now());
    const seen = new Set<string>();
    const progress = { pages_done: 0, pages_total: null as number | null, videos_seen: 0, videos_added: 0, videos_updated: 0 };
    try {
      for await (const listed of catalogue.pages(job.signal)) {
        // Vimeo titles and descriptions are typed by people: text the database cannot store is removed rather than failing the sync.
        const page = { ...listed, videos: scrubText(listed.videos) };
        const { added, updated } = await upsertCataloguePage(database, page.videos, clock.now());
        for (const video of page.videos) seen.add(video.vimeo_video_id);
        progress.pages_done = page.page;
        progress.pages_total = page.pagesTotal ?? progress.pages_total;
        progress.videos_seen = seen.size;
        progress.videos_added += added;
        progress.videos_updated += updated;
        await recordSyncProgress(database, job.id, progress);
        await job.heartbeat();
      }
      // An empty answer is far likelier a wrong account than a library emptied overnight.
      const missing = seen.size === 0 ? 0 : await flagMissingVideos(database, [...seen], clock.now());
      await finishSync(database, job.id, { missing, now: clock.now() });
      return { ...progress, videos_missing: missing };
    } catch (error) {
      const reason = job.signal.aborted
        ? 'The server shut down during the sync; start it again.'
        : error instanceof VimeoError
          ? error.message
          : 'The sync hit an internal error; the server log has the details.';
      app.log.warn({ err: error, job: job.id }, 'Vimeo sync failed');
      await finishSync(database, job.id, { missing: 0, now: clock.now(), error: reason });
      throw new Error(reason);
    }
  }

  // One attempt: the client already retried what was worth retrying, and staff can start another.
  app.jobs.define(VIMEO_SYNC_QUEUE, run, { maxAttempts: 1, leaseMs: 5 * 60_000, lane: 'sync' });
}

/** Starts a sync unless one is queued or running; either way answers with that sync. */
export async function startVimeoSync(app: FastifyInstance, source: VimeoCatalogue['source'], requestedBy: string | null): Promise<StartVimeoSyncResponse> {
  const { id, created } = await app.jobs.send(VIMEO_SYNC_QUEUE, {}, { singletonKey: SINGLETON });
  const sync = await ensureSyncRow(app.database, id, source, requestedBy, app.clock.now());
  return { started: created, already_running: !created, sync };
}

/**
 * Staff's 'Sync Vimeo videos': refused at once (503, retry in N s) while repeated Vimeo failures
 * keep its breaker open, rather than queueing a doomed sync; else starts one, or joins the one under
 * way. The job queue writes through its own connection, so the audit entry follows the queued job
 * rather than sharing its transaction; a click that joined a running sync changed nothing.
 */
export async function requestVimeoSync(app: FastifyInstance, actor: Actor): Promise<StartVimeoSyncResponse> {
  const catalogue = app.vimeo;
  catalogue.checkAvailable?.();
  const answer = await startVimeoSync(app, catalogue.source, actor.staff?.email ?? null);
  if (answer.started) {
    await recordAudit(app.database, {
      ...actor,
      action: 'vimeo_sync.start',
      target_type: 'vimeo_sync',
      target_id: answer.sync.id,
      after: { source: catalogue.source, state: answer.sync.state },
    });
  }
  return answer;
}
