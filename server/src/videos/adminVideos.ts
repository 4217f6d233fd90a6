import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { AdminVideo, AdminVideoFilter, AdminVideoUpdate, ADMIN_VIDEO_SORT_FIELDS } from '@contract/videos';
import type { Db } from '../db/client';
import { videoCategories, videoFigures, videos } from '../db/schema';
import { HttpError, notFound } from '../lib/errors';

export type AdminVideoSortField = (typeof ADMIN_VIDEO_SORT_FIELDS)[number];

export interface AdminVideoListParams {
  sort: [AdminVideoSortField, 'ASC' | 'DESC'];
  range: [number, number];
  filter: AdminVideoFilter;
}

const columns = {
  id: videos.id,
  title: videos.title,
  thumbnail_url: videos.thumbnail_url,
  enabled: videos.enabled,
  access_level_id: videos.access_level_id,
  vimeo_video_id: videos.vimeo_video_id,
  duration: videos.duration,
  category_id: videos.category_id,
  category: videoCategories.name,
  instructor: videos.instructor,
  tags: videos.vimeo_tags,
  title_edited: videos.title_edited,
  deleted_at: videos.deleted_at,
  vimeo_missing_since: videos.vimeo_missing_since,
  created_at: videos.created_at,
  updated_at: videos.updated_at,
  plays_30d: sql<number>`coalesce(${videoFigures.plays_30d}, 0)`,
  viewers_30d: sql<number>`coalesce(${videoFigures.viewers_30d}, 0)`,
  favorites: sql<number>`coalesce(${videoFigures.favorites}, 0)`,
  last_played_at: videoFigures.last_played_at,
};

type FigureKey = 'plays_30d' | 'viewers_30d' | 'favorites';
type ColumnKey = Exclude<keyof typeof columns, FigureKey>;
type Row = { [K in ColumnKey]: (typeof columns)[K]['_']['data'] | (K extends 'category' | 'last_played_at' ? null : never) } & Record<
  FigureKey,
  number | string
>;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toAdminVideo(row: Row): AdminVideo {
  return {
    ...row,
    tags: row.tags ?? [],
    deleted_at: iso(row.deleted_at),
    vimeo_missing_since: iso(row.vimeo_missing_since),
    plays_30d: Number(row.plays_30d),
    viewers_30d: Number(row.viewers_30d),
    favorites: Number(row.favorites),
    last_played_at: iso(row.last_played_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function whereOf(filter: AdminVideoFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  // An explicit id list (react-admin's getMany) returns those videos whatever their state.
  if (filter.id) conditions.push(inArray(videos.id, filter.id.length ? filter.id : [-1]));
  else conditions.push(filter.deleted ? isNotNull(videos.deleted_at) : isNull(videos.deleted_at));
  for (const text of [filter.q, filter.title]) {
    if (text?.trim()) conditions.push(ilike(videos.title, `%${escapeLike(text.trim())}%`));
  }
  if (filter.category_id != null) conditions.push(eq(videos.category_id, filter.category_id));
  if (filter.access_level_id != null) conditions.push(eq(videos.access_level_id, filter.access_level_id));
  if (filter.enabled != null) conditions.push(eq(videos.enabled, filter.enabled));
  if (filter.missing != null) conditions.push(filter.missing ? isNotNull(videos.vimeo_missing_since) : isNull(videos.vimeo_missing_since));
  if (filter.never_played != null) conditions.push(filter.never_played ? isNull(videoFigures.last_played_at) : isNotNull(videoFigures.last_played_at));
  return and(...conditions);
}

export async function listAdminVideos(db: Db, params: AdminVideoListParams): Promise<{ rows: AdminVideo[]; total: number }> {
  const where = whereOf(params.filter);
  const [field, order] = params.sort;
  const direction = order === 'ASC' ? asc : desc;
  const sortColumn = field === 'category' ? videoCategories.name : columns[field];
  const figures = eq(videoFigures.video_id, videos.id);
  // Ties (same title, same level…) break on id so pages never overlap or skip a row.
  const orderBy = field === 'id' ? [direction(videos.id)] : [sql`${direction(sortColumn)} NULLS LAST`, direction(videos.id)];
  const [start, end] = params.range;
  const [rows, [count]] = await Promise.all([
    db
      .select(columns)
      .from(videos)
      .leftJoin(videoCategories, eq(videoCategories.id, videos.category_id))
      .leftJoin(videoFigures, figures)
      .where(where)
      .orderBy(...orderBy)
      .limit(end - start + 1)
      .offset(start),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(videos)
      .leftJoin(videoFigures, figures)
      .where(where),
  ]);
  return { rows: (rows as Row[]).map(toAdminVideo), total: Number(count!.total) };
}

export async function getAdminVideo(db: Db, id: number): Promise<AdminVideo> {
  const [row] = await db
    .select(columns)
    .from(videos)
    .leftJoin(videoCategories, eq(videoCategories.id, videos.category_id))
    .leftJoin(videoFigures, eq(videoFigures.video_id, videos.id))
    .where(eq(videos.id, id));
  if (!row) throw notFound(`No video with id ${id}.`);
  return toAdminVideo(row as Row);
}

export async function updateAdminVideo(db: Db, id: number, input: AdminVideoUpdate, now: Date): Promise<AdminVideo> {
  const current = await getAdminVideo(db, id);
  if (input.category_id !== undefined && input.category_id !== null) {
    const [category] = await db.select({ id: videoCategories.id }).from(videoCategories).where(eq(videoCategories.id, input.category_id));
    if (!category) {
      throw new HttpError(400, `Invalid request: category_id: no category with id ${input.category_id}`, [
        { path: 'body.category_id', message: `no category with id ${input.category_id}` },
      ]);
    }
  }
  const changes: Partial<typeof videos.$inferInsert> = {};
  if (input.title !== undefined && input.title !== current.title) {
    changes.title = input.title;
    changes.title_edited = true;
  }
  if (input.instructor !== undefined) changes.instructor = input.instructor;
  if (input.category_id !== undefined) changes.category_id = input.category_id;
  if (input.access_level_id !== undefined) changes.access_level_id = input.access_level_id;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  // null restores; a timestamp means "deleted", which only DELETE starts, so it keeps the original time.
  if (input.deleted_at === null) changes.deleted_at = null;
  else if (input.deleted_at !== undefined && current.deleted_at === null) changes.deleted_at = now;
  if (Object.keys(changes).length === 0) return current;
  await db
    .update(videos)
    .set({ ...changes, updated_at: now })
    .where(eq(videos.id, id));
  return getAdminVideo(db, id);
}

/** Soft delete: the row stays (views, favorites, restore); the app and favorites options skip it. */
export async function deleteAdminVideo(db: Db, id: number, now: Date): Promise<AdminVideo> {
  await getAdminVideo(db, id);
  await db
    .update(videos)
    .set({ deleted_at: now, updated_at: now })
    .where(and(eq(videos.id, id), isNull(videos.deleted_at)));
  return getAdminVideo(db, id);
}

export async function listVideoCategories(db: Db) {
  return db.select({ id: videoCategories.id, name: videoCategories.name }).from(videoCategories).orderBy(videoCategories.sort_order, videoCategories.id);
}

/** The spec's GET /api/client/v1/videos: every live video. */
export async function listSpecVideos(db: Db) {
  return db
    .select({ id: videos.id, title: videos.title, thumbnail_url: videos.thumbnail_url, enabled: videos.enabled, access_level_id: videos.access_level_id })
    .from(videos)
    .where(isNull(videos.deleted_at))
    .orderBy(videos.id);
}
