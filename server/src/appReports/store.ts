import type { DebugInfoBody } from '../../../contract/appReports';
import type { Database } from '../db/client';

/**
 * The client an app report names: the e-mail decides (case-insensitive, preferring the row whose
 * MindBody id also matches), otherwise the MindBody id.
 */
export async function findReportingClient(database: Database, key: { email?: string | null; mb_client_id?: string | null }): Promise<number | null> {
  const email = key.email?.trim() || null;
  const mbClientId = key.mb_client_id?.trim() || null;
  if (email) {
    const [row] = await database.query<{ id: number }>(
      `SELECT id FROM clients WHERE lower(email_address) = lower($1) ORDER BY (mb_client_id IS NOT DISTINCT FROM $2) DESC, id LIMIT 1`,
      [email, mbClientId],
    );
    if (row) return Number(row.id);
  }
  if (mbClientId) {
    const [row] = await database.query<{ id: number }>('SELECT id FROM clients WHERE mb_client_id = $1 ORDER BY id LIMIT 1', [mbClientId]);
    if (row) return Number(row.id);
  }
  return null;
}

export async function insertDebugRecord(database: Database, body: DebugInfoBody, extra: { clientId: number | null; ip: string; now: Date }) {
  const [row] = await database.query<{ id: number }>(
    `INSERT INTO debug_records (client_id, email, mb_client_id, app_access_level, firebase_token_new, firebase_token_current, platform,
                                platform_version, is_ipad, screen_width, screen_height, device_width, device_height, ip, app_version,
                                sent_at, device_constants, network_info, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
     RETURNING id`,
    [
      extra.clientId,
      body.email ?? null,
      body.mb_client_id ?? null,
      body.app_access_level ?? null,
      body.firebase_token_new ?? null,
      body.firebase_token_current ?? null,
      body.platform ?? null,
      body.platform_version ?? null,
      body.is_ipad ?? null,
      body.screen_width ?? null,
      body.screen_height ?? null,
      body.device_width ?? null,
      body.device_height ?? null,
      body.ip ?? extra.ip,
      body.app_version ?? null,
      body.sent_at ? new Date(body.sent_at).toISOString() : extra.now.toISOString(),
      body.device_constants ? JSON.stringify(body.device_constants) : null,
      body.network_info ? JSON.stringify(body.network_info) : null,
      extra.now.toISOString(),
    ],
  );
  return Number(row!.id);
}

export async function findVideo(database: Database, vimeoVideoId: string): Promise<number | null> {
  const [row] = await database.query<{ id: number }>('SELECT id FROM videos WHERE vimeo_video_id = $1', [vimeoVideoId]);
  return row ? Number(row.id) : null;
}

/** One row per (client, video, viewed_at): an app resending the same view is not counted twice. */
export async function recordView(database: Database, view: { clientId: number; videoId: number; viewedAt: Date }) {
  const params = [view.clientId, view.videoId, view.viewedAt.toISOString()];
  const [existing] = await database.query<{ id: number }>(
    'SELECT id FROM video_views WHERE client_id = $1 AND viewed_at = $3 AND video_id = $2 LIMIT 1',
    params,
  );
  if (existing) return { id: Number(existing.id), duplicate: true };
  const [row] = await database.query<{ id: number }>('INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3) RETURNING id', params);
  return { id: Number(row!.id), duplicate: false };
}
