import type { Database } from '../../server/src/db/client';

export const DAY = 24 * 60 * 60 * 1000;

export interface ClientFixture {
  first_name?: string | null;
  last_name?: string | null;
  email_address?: string | null;
  mb_client_id?: string | null;
  mb_site_id?: number | null;
  vod_access_level?: number | null;
  client_status?: string | null;
  first_login?: Date | null;
  admin_updated_expiration?: Date | null;
}

/** Inserts one client and returns its id. */
export async function insertClient(database: Database, client: ClientFixture): Promise<number> {
  const [row] = await database.query<{ id: number }>(
    `INSERT INTO clients (first_name, last_name, email_address, mb_client_id, mb_site_id, vod_access_level,
                          client_status, first_login, admin_updated_expiration)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      client.first_name ?? null,
      client.last_name ?? null,
      client.email_address ?? null,
      client.mb_client_id ?? null,
      client.mb_site_id ?? null,
      client.vod_access_level ?? null,
      client.client_status ?? null,
      client.first_login?.toISOString() ?? null,
      client.admin_updated_expiration?.toISOString() ?? null,
    ],
  );
  return Number(row!.id);
}

export interface VideoFixture {
  title: string;
  vimeo_video_id?: string;
  category?: string | null;
  access_level_id?: number;
  enabled?: boolean;
  deleted?: boolean;
  instructor?: string | null;
  duration?: number;
}

/** Inserts one video (creating its category on first use) and returns its id. */
export async function insertVideo(database: Database, video: VideoFixture): Promise<number> {
  let categoryId: number | null = null;
  if (video.category) {
    const [category] = await database.query<{ id: number }>(
      `INSERT INTO video_categories (name, sort_order) VALUES ($1, (SELECT coalesce(max(sort_order), 0) + 1 FROM video_categories))
       ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [video.category],
    );
    categoryId = category!.id;
  }
  const [row] = await database.query<{ id: number }>(
    `INSERT INTO videos (vimeo_video_id, title, duration, enabled, access_level_id, category_id, instructor, deleted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      video.vimeo_video_id ?? null,
      video.title,
      video.duration ?? 600,
      video.enabled ?? true,
      video.access_level_id ?? 1,
      categoryId,
      video.instructor ?? null,
      video.deleted ? new Date().toISOString() : null,
    ],
  );
  return row!.id;
}
