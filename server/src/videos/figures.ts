import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';

/** Issue 24 point 6: the Video Manager's per-video figures, kept in video_figures (migration 0053). */
export const VIDEO_FIGURES = 'videos.figures';
export const VIDEO_FIGURES_EVERY_MS = 10 * 60_000;
export const FIGURES_WINDOW_DAYS = 30;

/**
 * Recomputes every video's figures in one statement: plays and distinct viewers over the 30 days
 * up to `now`, favorites, and the last view ever (an index lookup per video).
 */
export async function refreshVideoFigures(database: Database, now: Date): Promise<{ videos: number }> {
  const from = new Date(now.getTime() - FIGURES_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const rows = await database.query(
    `INSERT INTO video_figures (video_id, plays_30d, viewers_30d, favorites, last_played_at, refreshed_at)
     SELECT v.id, coalesce(w.plays, 0), coalesce(w.viewers, 0),
            (SELECT count(*)::int FROM favorites f WHERE f.video_id = v.id),
            (SELECT max(x.viewed_at) FROM video_views x WHERE x.video_id = v.id AND x.viewed_at <= $2),
            $2
     FROM videos v
     LEFT JOIN (SELECT video_id, count(*)::int AS plays, count(DISTINCT client_id)::int AS viewers
                FROM video_views WHERE viewed_at > $1 AND viewed_at <= $2 GROUP BY video_id) w ON w.video_id = v.id
     ON CONFLICT (video_id) DO UPDATE SET plays_30d = EXCLUDED.plays_30d, viewers_30d = EXCLUDED.viewers_30d,
       favorites = EXCLUDED.favorites, last_played_at = EXCLUDED.last_played_at, refreshed_at = EXCLUDED.refreshed_at
     RETURNING video_id`,
    [from.toISOString(), now.toISOString()],
  );
  return { videos: rows.length };
}

export function registerVideoFigureJobs(app: FastifyInstance) {
  app.jobs.define(VIDEO_FIGURES, async () => refreshVideoFigures(app.database, app.clock.now()), { lane: 'sync', maxAttempts: 1 });
}
