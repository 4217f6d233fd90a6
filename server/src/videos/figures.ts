import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { refreshFiguresBatch } from './queries';

/** The Video Manager's per-video figures, kept in video_figures (migration 0053). */
export const VIDEO_FIGURES = 'videos.figures';
export const VIDEO_FIGURES_EVERY_MS = 10 * 60_000;
export const FIGURES_WINDOW_DAYS = 30;

/** Videos per statement: one statement over all of them took 9.5-11.6 s on PGlite at 10,000,000 views. */
export const FIGURES_BATCH = 250;

/**
 * Recomputes every video's figures: plays and distinct viewers over the 30 days up to `now` (a range
 * of the (video_id, viewed_at) index per video), favorites, and the last view ever. In batches of
 * videos, each its own statement: PGlite runs one statement at a time, and a single statement over
 * the whole library held every other request back for ~10 s every 10 minutes at a million clients
 * (a batch takes ~0.2 s there). Each video's figures are of one moment; the batches are not.
 */
export async function refreshVideoFigures(database: Database, now: Date, batchSize = FIGURES_BATCH): Promise<{ videos: number }> {
  const from = new Date(now.getTime() - FIGURES_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  let after = 0;
  let videos = 0;
  for (;;) {
    const ids = await refreshFiguresBatch(database, from, now, after, batchSize);
    videos += ids.length;
    if (ids.length < batchSize) return { videos };
    after = Math.max(...ids);
  }
}

export function registerVideoFigureJobs(app: FastifyInstance) {
  app.jobs.define(VIDEO_FIGURES, async () => refreshVideoFigures(app.database, app.clock.now()), { lane: 'sync', maxAttempts: 1 });
}
