import type { AdminVideo, AdminVideoFilter, AdminVideoUpdate, ADMIN_VIDEO_SORT_FIELDS } from '@contract/videos';
import type { Queryable } from '../db/client';
import { HttpError, notFound } from '../lib/errors';
import { adminVideo, adminVideoPage, categoryExists, markVideoDeleted, updateVideo, videoCategories, type AdminVideoRow, type VideoChanges } from './queries';

export type AdminVideoSortField = (typeof ADMIN_VIDEO_SORT_FIELDS)[number];

export interface AdminVideoListParams {
  sort: [AdminVideoSortField, 'ASC' | 'DESC'];
  range: [number, number];
  filter: AdminVideoFilter;
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

function toAdminVideo(row: AdminVideoRow): AdminVideo {
  return {
    ...row,
    deleted_at: iso(row.deleted_at),
    vimeo_missing_since: iso(row.vimeo_missing_since),
    last_played_at: iso(row.last_played_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function listAdminVideos(database: Queryable, params: AdminVideoListParams): Promise<{ rows: AdminVideo[]; total: number }> {
  const { rows, total } = await adminVideoPage(database, params);
  return { rows: rows.map(toAdminVideo), total };
}

export async function getAdminVideo(database: Queryable, id: number): Promise<AdminVideo> {
  const row = await adminVideo(database, id);
  if (!row) throw notFound(`No video with id ${id}.`);
  return toAdminVideo(row);
}

export async function updateAdminVideo(database: Queryable, id: number, input: AdminVideoUpdate, now: Date): Promise<AdminVideo> {
  const current = await getAdminVideo(database, id);
  if (input.category_id !== undefined && input.category_id !== null && !(await categoryExists(database, input.category_id))) {
    throw new HttpError(400, `Invalid request: category_id: no category with id ${input.category_id}`, [
      { path: 'body.category_id', message: `no category with id ${input.category_id}` },
    ]);
  }
  const changes: VideoChanges = {};
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
  await updateVideo(database, id, changes, now);
  return getAdminVideo(database, id);
}

/** Soft delete: the row stays (views, favorites, restore); the app and favorites options skip it. */
export async function deleteAdminVideo(database: Queryable, id: number, now: Date): Promise<AdminVideo> {
  await getAdminVideo(database, id);
  await markVideoDeleted(database, id, now);
  return getAdminVideo(database, id);
}

export function listVideoCategories(database: Queryable) {
  return videoCategories(database);
}
