import { z } from 'zod';
import { timestamp } from '../db/rows';
import { VimeoSync, type VimeoSyncState } from '@contract/videos';
import type { Queryable } from '../db/client';
import type { CatalogueVideo } from '../integrations/vimeo';
import { notFound } from '../lib/errors';

const InsertedRow = z.object({ inserted: z.boolean() });
const FlaggedRow = z.object({ flagged: z.number() });
const TotalRow = z.object({ total: z.number() });

/**
 * Upserts one page by Vimeo id. Only Vimeo's fields change (title unless staff edited it,
 * duration, thumbnail, tags); enabled, access level, category, instructor and deleted_at are
 * staff's and stay. A row whose Vimeo fields are already equal is not written at all, so a
 * second identical sync changes nothing. New videos arrive disabled for staff to review.
 */
export async function upsertCataloguePage(database: Queryable, page: CatalogueVideo[], now: Date): Promise<{ added: number; updated: number }> {
  const unique = [...new Map(page.map((video) => [video.vimeo_video_id, video])).values()];
  if (unique.length === 0) return { added: 0, updated: 0 };
  const rows = await database.rows(
    InsertedRow,
    `WITH incoming AS (
       SELECT t.vimeo_video_id, t.title, t.duration, t.thumbnail_url,
              ARRAY(SELECT jsonb_array_elements_text(t.tags::jsonb)) AS tags
       FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[]) AS t(vimeo_video_id, title, duration, thumbnail_url, tags)
     )
     INSERT INTO videos AS v (vimeo_video_id, title, duration, thumbnail_url, vimeo_tags, enabled, access_level_id, category_id, created_at, updated_at)
     SELECT i.vimeo_video_id, i.title, i.duration, i.thumbnail_url, i.tags, false, 1,
            (SELECT c.id FROM video_categories c WHERE lower(c.name) IN (SELECT lower(x) FROM unnest(i.tags) AS x) ORDER BY c.sort_order, c.id LIMIT 1),
            $6, $6
     FROM incoming i
     ON CONFLICT (vimeo_video_id) DO UPDATE SET
       title = CASE WHEN v.title_edited THEN v.title ELSE EXCLUDED.title END,
       duration = EXCLUDED.duration,
       thumbnail_url = COALESCE(EXCLUDED.thumbnail_url, v.thumbnail_url),
       vimeo_tags = EXCLUDED.vimeo_tags,
       vimeo_missing_since = NULL,
       updated_at = EXCLUDED.updated_at
     WHERE v.vimeo_missing_since IS NOT NULL
        OR (CASE WHEN v.title_edited THEN v.title ELSE EXCLUDED.title END, EXCLUDED.duration,
            COALESCE(EXCLUDED.thumbnail_url, v.thumbnail_url), EXCLUDED.vimeo_tags)
           IS DISTINCT FROM (v.title, v.duration, v.thumbnail_url, v.vimeo_tags)
     RETURNING (xmax = 0) AS inserted`,
    [
      unique.map((video) => video.vimeo_video_id),
      unique.map((video) => video.title),
      unique.map((video) => video.duration),
      unique.map((video) => video.thumbnail_url),
      unique.map((video) => JSON.stringify(video.tags)),
      now.toISOString(),
    ],
  );
  const added = rows.filter((row) => row.inserted).length;
  return { added, updated: rows.length - added };
}

/** After a complete sync: flags stored Vimeo videos the catalogue no longer has. Returns how many are newly flagged. */
export async function flagMissingVideos(database: Queryable, seenIds: string[], now: Date): Promise<number> {
  const [row] = await database.rows(
    FlaggedRow,
    `WITH flagged AS (
       UPDATE videos SET vimeo_missing_since = $1
       WHERE vimeo_video_id IS NOT NULL AND vimeo_missing_since IS NULL AND NOT (vimeo_video_id = ANY($2::text[]))
       RETURNING 1
     )
     SELECT count(*)::int AS flagged FROM flagged`,
    [now.toISOString(), seenIds],
  );
  return row?.flagged ?? 0;
}

// ---- vimeo_syncs: one row per sync ----

/**
 * A sync whose job ended without the handler recording it (the process died, or it was cut off
 * at shutdown) reads as failed with the job's reason rather than running forever; so does one
 * whose job has since been pruned (JOB_RETENTION_DAYS).
 */
const STOPPED = `s.state IN ('queued', 'running') AND (s.job_id IS NULL OR j.state IN ('done', 'failed'))`;
const SELECT_SYNC = `
  SELECT s.id, s.source, s.requested_by, s.pages_done, s.pages_total, s.videos_seen, s.videos_added,
         s.videos_updated, s.videos_missing, s.created_at, s.started_at,
         CASE WHEN ${STOPPED} THEN 'failed' ELSE s.state END AS state,
         CASE WHEN ${STOPPED}
              THEN COALESCE(s.error, 'The sync stopped without finishing (' || COALESCE(j.last_error, 'no reason recorded') || ').')
              ELSE s.error END AS error,
         CASE WHEN ${STOPPED} THEN COALESCE(j.finished_at, s.started_at, s.created_at) ELSE s.finished_at END AS finished_at
  FROM vimeo_syncs s LEFT JOIN jobs j ON j.id = s.job_id`;

/** A sync as stored (reconciled with its job); the answer's times are ISO text. */
const SyncRow = VimeoSync.extend({ created_at: timestamp, started_at: timestamp.nullable(), finished_at: timestamp.nullable() });

function toVimeoSync(row: z.infer<typeof SyncRow>): VimeoSync {
  return {
    ...row,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

export async function getSyncByJob(database: Queryable, jobId: number): Promise<VimeoSync | undefined> {
  const [row] = await database.rows(SyncRow, `${SELECT_SYNC} WHERE s.job_id = $1`, [jobId]);
  return row ? toVimeoSync(row) : undefined;
}

export async function getSync(database: Queryable, id: number): Promise<VimeoSync | undefined> {
  const [row] = await database.rows(SyncRow, `${SELECT_SYNC} WHERE s.id = $1`, [id]);
  return row ? toVimeoSync(row) : undefined;
}

/** One sync; 404 when there is none. */
export async function requireSync(database: Queryable, id: number): Promise<VimeoSync> {
  const sync = await getSync(database, id);
  if (!sync) throw notFound(`No Vimeo sync with id ${id}.`);
  return sync;
}

export async function listSyncs(
  database: Queryable,
  params: { sort: ['id' | 'created_at' | 'finished_at', 'ASC' | 'DESC']; range: [number, number]; state?: VimeoSyncState },
): Promise<{ rows: VimeoSync[]; total: number }> {
  const [field, order] = params.sort;
  const direction = order === 'ASC' ? 'ASC' : 'DESC';
  // state is filtered after reconciliation, so a sync cut off by a crash lists as failed.
  const filtered = `SELECT * FROM (${SELECT_SYNC}) AS s ${params.state ? 'WHERE s.state = $1' : ''}`;
  const args = params.state ? [params.state] : [];
  const [start, end] = params.range;
  const [rows, [count]] = await Promise.all([
    database.rows(SyncRow, `${filtered} ORDER BY s.${field} ${direction} NULLS LAST, s.id ${direction} LIMIT ${end - start + 1} OFFSET ${start}`, args),
    database.rows(TotalRow, `SELECT count(*)::int AS total FROM (${filtered}) AS counted`, args),
  ]);
  return { rows: rows.map(toVimeoSync), total: count!.total };
}

/** Creates the sync's row for a job unless it exists (a concurrent click may have made it). */
export async function ensureSyncRow(database: Queryable, jobId: number, source: VimeoSync['source'], requestedBy: string | null, now: Date) {
  await database.execute(
    `INSERT INTO vimeo_syncs (job_id, source, requested_by, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (job_id) DO UPDATE SET requested_by = COALESCE(vimeo_syncs.requested_by, EXCLUDED.requested_by)`,
    [jobId, source, requestedBy, now.toISOString()],
  );
  return (await getSyncByJob(database, jobId))!;
}

export async function markSyncRunning(database: Queryable, jobId: number, now: Date): Promise<void> {
  await database.execute(
    `UPDATE vimeo_syncs SET state = 'running', started_at = $2, pages_done = 0, pages_total = NULL, videos_seen = 0,
            videos_added = 0, videos_updated = 0, videos_missing = 0, error = NULL, finished_at = NULL
     WHERE job_id = $1`,
    [jobId, now.toISOString()],
  );
}

export interface SyncProgress {
  pages_done: number;
  pages_total: number | null;
  videos_seen: number;
  videos_added: number;
  videos_updated: number;
}

export async function recordSyncProgress(database: Queryable, jobId: number, progress: SyncProgress): Promise<void> {
  await database.execute(
    `UPDATE vimeo_syncs SET pages_done = $2, pages_total = $3, videos_seen = $4, videos_added = $5, videos_updated = $6 WHERE job_id = $1`,
    [jobId, progress.pages_done, progress.pages_total, progress.videos_seen, progress.videos_added, progress.videos_updated],
  );
}

export async function finishSync(database: Queryable, jobId: number, outcome: { missing: number; now: Date; error?: string }): Promise<void> {
  await database.execute(
    `UPDATE vimeo_syncs SET state = $2, videos_missing = $3, error = $4, finished_at = $5,
            pages_total = CASE WHEN $2 = 'done' THEN pages_done ELSE pages_total END
     WHERE job_id = $1`,
    [jobId, outcome.error ? 'failed' : 'done', outcome.missing, outcome.error ?? null, outcome.now.toISOString()],
  );
}
