import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { AdminVideoFilter, ADMIN_VIDEO_SORT_FIELDS } from '@contract/videos';
import type { Queryable } from '../db/client';

/** A video as the Video Manager reads it: its row, its category's name and its figures (0 and null before the first refresh). */
const AdminVideoRow = z.object({
  id: z.number(),
  title: z.string(),
  thumbnail_url: z.string().nullable(),
  enabled: z.boolean(),
  access_level_id: z.number(),
  vimeo_video_id: z.string().nullable(),
  duration: z.number(),
  category_id: z.number().nullable(),
  category: z.string().nullable(),
  instructor: z.string().nullable(),
  tags: z.array(z.string()),
  title_edited: z.boolean(),
  deleted_at: timestamp.nullable(),
  vimeo_missing_since: timestamp.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  plays_30d: z.number(),
  viewers_30d: z.number(),
  favorites: z.number(),
  last_played_at: timestamp.nullable(),
});
export type AdminVideoRow = z.infer<typeof AdminVideoRow>;

const TotalRow = z.object({ total: z.number() });
const IdRow = z.object({ id: z.number() });
const CategoryRow = z.object({ id: z.number(), name: z.string() });
const SpecVideoRow = z.object({ id: z.number(), title: z.string(), thumbnail_url: z.string().nullable(), enabled: z.boolean(), access_level_id: z.number() });
const VersionRow = z.object({ version: z.number() });
const VideoIdRow = z.object({ video_id: z.number() });

const ADMIN_COLUMNS = `v.id, v.title, v.thumbnail_url, v.enabled, v.access_level_id, v.vimeo_video_id, v.duration, v.category_id,
  c.name AS category, v.instructor, v.vimeo_tags AS tags, v.title_edited, v.deleted_at, v.vimeo_missing_since, v.created_at, v.updated_at,
  coalesce(f.plays_30d, 0) AS plays_30d, coalesce(f.viewers_30d, 0) AS viewers_30d, coalesce(f.favorites, 0) AS favorites, f.last_played_at`;
const ADMIN_FROM = `videos v
  LEFT JOIN video_categories c ON c.id = v.category_id
  LEFT JOIN video_figures f ON f.video_id = v.id`;

const SORT_COLUMNS: Record<(typeof ADMIN_VIDEO_SORT_FIELDS)[number], string> = {
  title: 'v.title',
  id: 'v.id',
  enabled: 'v.enabled',
  access_level_id: 'v.access_level_id',
  category: 'c.name',
  instructor: 'v.instructor',
  duration: 'v.duration',
  updated_at: 'v.updated_at',
  plays_30d: 'coalesce(f.plays_30d, 0)',
  viewers_30d: 'coalesce(f.viewers_30d, 0)',
  favorites: 'coalesce(f.favorites, 0)',
  last_played_at: 'f.last_played_at',
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function whereOf(filter: AdminVideoFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const conditions: string[] = [];
  // An explicit id list (react-admin's getMany) returns those videos whatever their state.
  if (filter.id) conditions.push(`v.id = ANY(${param(filter.id.length ? filter.id : [-1])}::int[])`);
  else conditions.push(filter.deleted ? 'v.deleted_at IS NOT NULL' : 'v.deleted_at IS NULL');
  for (const text of [filter.q, filter.title]) {
    if (text?.trim()) conditions.push(`v.title ILIKE ${param(`%${escapeLike(text.trim())}%`)}`);
  }
  if (filter.category_id != null) conditions.push(`v.category_id = ${param(filter.category_id)}`);
  if (filter.access_level_id != null) conditions.push(`v.access_level_id = ${param(filter.access_level_id)}`);
  if (filter.enabled != null) conditions.push(`v.enabled = ${param(filter.enabled)}`);
  if (filter.missing != null) conditions.push(filter.missing ? 'v.vimeo_missing_since IS NOT NULL' : 'v.vimeo_missing_since IS NULL');
  if (filter.never_played != null) conditions.push(filter.never_played ? 'f.last_played_at IS NULL' : 'f.last_played_at IS NOT NULL');
  return { where: `WHERE ${conditions.join(' AND ')}`, params };
}

/** One page of the Video Manager's list (`range` inclusive) and the filtered total. */
export async function adminVideoPage(
  database: Queryable,
  params: { sort: [(typeof ADMIN_VIDEO_SORT_FIELDS)[number], 'ASC' | 'DESC']; range: [number, number]; filter: AdminVideoFilter },
): Promise<{ rows: AdminVideoRow[]; total: number }> {
  const { where, params: values } = whereOf(params.filter);
  const [field, order] = params.sort;
  const direction = order === 'ASC' ? 'ASC' : 'DESC';
  // Ties (same title, same level…) break on id so pages never overlap or skip a row.
  const orderBy = field === 'id' ? `v.id ${direction}` : `${SORT_COLUMNS[field]} ${direction} NULLS LAST, v.id ${direction}`;
  const [start, end] = params.range;
  const [rows, [count]] = await Promise.all([
    database.rows(
      AdminVideoRow,
      `SELECT ${ADMIN_COLUMNS} FROM ${ADMIN_FROM} ${where} ORDER BY ${orderBy} LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
      [...values, end - start + 1, start],
    ),
    database.rows(TotalRow, `SELECT count(*)::int AS total FROM videos v LEFT JOIN video_figures f ON f.video_id = v.id ${where}`, values),
  ]);
  return { rows, total: count!.total };
}

export async function adminVideo(database: Queryable, id: number): Promise<AdminVideoRow | undefined> {
  const [row] = await database.rows(AdminVideoRow, `SELECT ${ADMIN_COLUMNS} FROM ${ADMIN_FROM} WHERE v.id = $1`, [id]);
  return row;
}

export async function categoryExists(database: Queryable, id: number): Promise<boolean> {
  return (await database.rows(IdRow, 'SELECT id FROM video_categories WHERE id = $1', [id])).length > 0;
}

/** The columns staff edit; a key left out keeps its value. */
export interface VideoChanges {
  title?: string;
  title_edited?: boolean;
  instructor?: string | null;
  category_id?: number | null;
  access_level_id?: number;
  enabled?: boolean;
  deleted_at?: Date | null;
}
const EDITED: (keyof VideoChanges)[] = ['title', 'title_edited', 'instructor', 'category_id', 'access_level_id', 'enabled', 'deleted_at'];

export async function updateVideo(database: Queryable, id: number, changes: VideoChanges, now: Date): Promise<void> {
  const params: unknown[] = [id, now.toISOString()];
  const sets = EDITED.filter((column) => changes[column] !== undefined).map((column) => {
    const value = changes[column];
    params.push(value instanceof Date ? value.toISOString() : value);
    return `${column} = $${params.length}`;
  });
  await database.execute(`UPDATE videos SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1`, params);
}

/** Soft delete: a video already deleted keeps its time. */
export async function markVideoDeleted(database: Queryable, id: number, now: Date): Promise<void> {
  await database.execute('UPDATE videos SET deleted_at = $2, updated_at = $2 WHERE id = $1 AND deleted_at IS NULL', [id, now.toISOString()]);
}

export function videoCategories(database: Queryable): Promise<{ id: number; name: string }[]> {
  return database.rows(CategoryRow, 'SELECT id, name FROM video_categories ORDER BY sort_order, id');
}

/** The spec's GET /api/client/v1/videos: every live video. */
export function specVideos(database: Queryable) {
  return database.rows(SpecVideoRow, 'SELECT id, title, thumbnail_url, enabled, access_level_id FROM videos WHERE deleted_at IS NULL ORDER BY id');
}

/** The library's version (migration 0025): it moves with every change to videos. */
export async function videosVersion(database: Queryable): Promise<number | undefined> {
  const [row] = await database.rows(VersionRow, "SELECT version FROM table_versions WHERE name = 'videos'");
  return row?.version;
}

/**
 * Stores the figures of the `batchSize` videos after id `after`: plays and distinct viewers in (from, to],
 * favorites, and the last view up to `to`. Answers the ids it stored.
 */
export async function refreshFiguresBatch(database: Queryable, from: Date, to: Date, after: number, batchSize: number): Promise<number[]> {
  const rows = await database.rows(
    VideoIdRow,
    `WITH batch AS (SELECT id FROM videos WHERE id > $3 ORDER BY id LIMIT $4)
     INSERT INTO video_figures (video_id, plays_30d, viewers_30d, favorites, last_played_at, refreshed_at)
     SELECT v.id, w.plays, w.viewers,
            (SELECT count(*)::int FROM favorites f WHERE f.video_id = v.id),
            (SELECT max(x.viewed_at) FROM video_views x WHERE x.video_id = v.id AND x.viewed_at <= $2),
            $2
     FROM batch v
     CROSS JOIN LATERAL (SELECT count(*)::int AS plays, count(DISTINCT client_id)::int AS viewers
                         FROM video_views vv WHERE vv.video_id = v.id AND vv.viewed_at > $1 AND vv.viewed_at <= $2) w
     ON CONFLICT (video_id) DO UPDATE SET plays_30d = EXCLUDED.plays_30d, viewers_30d = EXCLUDED.viewers_30d,
       favorites = EXCLUDED.favorites, last_played_at = EXCLUDED.last_played_at, refreshed_at = EXCLUDED.refreshed_at
     RETURNING video_id`,
    [from.toISOString(), to.toISOString(), after, batchSize],
  );
  return rows.map((row) => row.video_id);
}
