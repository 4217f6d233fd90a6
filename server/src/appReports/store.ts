import type { DebugInfoBody } from '@contract/appReports';
import type { Database, Queryable } from '../db/client';
import { decideUseForPush, lockReportsOf, trimClientHistory, trimHoldingArea } from './retention';

/**
 * The client an app report names: the e-mail decides (case-insensitive, preferring the row whose
 * MindBody id also matches), otherwise the MindBody id. `emailOnly` when the e-mail was proven and
 * the Mindbody id was not: another client's id must not stand in for a proven e-mail nobody has.
 */
export async function findReportingClient(
  database: Database,
  key: { email?: string | null; mb_client_id?: string | null },
  options: { emailOnly?: boolean } = {},
): Promise<number | null> {
  const email = key.email?.trim() || null;
  const mbClientId = key.mb_client_id?.trim() || null;
  if (email) {
    const [row] = await database.query<{ id: number }>(
      `SELECT id FROM clients WHERE lower(email_address) = lower($1) ORDER BY (mb_client_id IS NOT DISTINCT FROM $2) DESC, id LIMIT 1`,
      [email, mbClientId],
    );
    if (row) return Number(row.id);
  }
  if (mbClientId && !options.emailOnly) {
    const [row] = await database.query<{ id: number }>('SELECT id FROM clients WHERE mb_client_id = $1 ORDER BY id LIMIT 1', [mbClientId]);
    if (row) return Number(row.id);
  }
  return null;
}

export interface ReportContext {
  clientId: number | null;
  /** The request's own address (the body's ip is what the device claims). */
  receivedFrom: string;
  /** The report came with a Firebase ID token for the client's e-mail. */
  verified: boolean;
  now: Date;
}

/**
 * Stores one debug report, decides whether pushes may go to it, and trims what the report may
 * have pushed over a bound (bounds.ts). One transaction under a lock per client (or on the
 * holding area), so a burst of parallel reports is decided and trimmed one at a time.
 */
export async function storeDebugReport(database: Database, body: DebugInfoBody, context: ReportContext): Promise<number> {
  return database.transaction(async (tx) => {
    await lockReportsOf(tx, context.clientId);
    const usedForPush =
      context.clientId === null ? true : await decideUseForPush(tx, context.clientId, { ...reportDevice(body), verified: context.verified }, context.now);
    const id = await insertRecord(tx, body, context, usedForPush);
    if (context.clientId === null)
      await trimHoldingArea(tx, { email: body.email ?? null, mbClientId: body.mb_client_id ?? null, receivedFrom: context.receivedFrom, now: context.now });
    else await trimClientHistory(tx, context.clientId);
    return id;
  });
}

const reportDevice = (body: DebugInfoBody) => ({
  platform: body.platform ?? null,
  is_ipad: body.is_ipad ?? null,
  firebase_token_new: body.firebase_token_new ?? null,
  firebase_token_current: body.firebase_token_current ?? null,
});

async function insertRecord(tx: Queryable, body: DebugInfoBody, context: ReportContext, usedForPush: boolean): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO debug_records (client_id, email, mb_client_id, app_access_level, firebase_token_new, firebase_token_current, platform,
                                platform_version, is_ipad, screen_width, screen_height, device_width, device_height, ip, app_version,
                                sent_at, device_constants, network_info, created_at, used_for_push, identity_verified, received_from)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
     RETURNING id`,
    [
      context.clientId,
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
      body.ip ?? context.receivedFrom,
      body.app_version ?? null,
      body.sent_at ? new Date(body.sent_at).toISOString() : context.now.toISOString(),
      body.device_constants ? JSON.stringify(body.device_constants) : null,
      body.network_info ? JSON.stringify(body.network_info) : null,
      context.now.toISOString(),
      usedForPush,
      context.verified,
      context.receivedFrom,
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
  // The unique key decides (migration 0029): of identical reports arriving together one inserts.
  const [inserted] = await database.query<{ id: number }>(
    'INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3) ON CONFLICT (client_id, video_id, viewed_at) DO NOTHING RETURNING id',
    params,
  );
  if (inserted) return { id: Number(inserted.id), duplicate: false };
  const [existing] = await database.query<{ id: number }>('SELECT id FROM video_views WHERE client_id = $1 AND video_id = $2 AND viewed_at = $3', params);
  return { id: Number(existing!.id), duplicate: true };
}

/**
 * The client opened one of their pushes: the first report stands (an open before the push was made is
 * taken as made then). Null when the push is not this client's, or does not exist: the caller says neither.
 */
export async function recordPushOpened(
  database: Database,
  open: { clientId: number; pushId: number; openedAt: Date },
): Promise<{ opened_at: string; duplicate: boolean } | null> {
  const params = [open.pushId, open.clientId, open.openedAt.toISOString()];
  const [first] = await database.query<{ opened_at: Date | string }>(
    'UPDATE pushes SET opened_at = greatest($3::timestamptz, created_at) WHERE id = $1 AND client_id = $2 AND opened_at IS NULL RETURNING opened_at',
    params,
  );
  if (first) return { opened_at: new Date(first.opened_at).toISOString(), duplicate: false };
  const [earlier] = await database.query<{ opened_at: Date | string | null }>(
    'SELECT opened_at FROM pushes WHERE id = $1 AND client_id = $2',
    params.slice(0, 2),
  );
  return earlier?.opened_at ? { opened_at: new Date(earlier.opened_at).toISOString(), duplicate: true } : null;
}
