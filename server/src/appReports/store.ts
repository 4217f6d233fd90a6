import type { DebugInfoBody } from '@contract/appReports';
import type { Database, Queryable } from '../db/client';
import {
  clientByEmailPreferringMindbodyId,
  clientByMindbodyId,
  insertDebugRecord,
  insertView,
  markPushOpened,
  pushOpenedAt,
  videoIdOf,
  viewIdOf,
} from './queries';
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
    const id = await clientByEmailPreferringMindbodyId(database, email, mbClientId);
    if (id !== undefined) return id;
  }
  if (mbClientId && !options.emailOnly) {
    const id = await clientByMindbodyId(database, mbClientId);
    if (id !== undefined) return id;
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
  return insertDebugRecord(tx, [
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
  ]);
}

export async function findVideo(database: Database, vimeoVideoId: string): Promise<number | null> {
  return (await videoIdOf(database, vimeoVideoId)) ?? null;
}

/** One row per (client, video, viewed_at): an app resending the same view is not counted twice. */
export async function recordView(database: Database, view: { clientId: number; videoId: number; viewedAt: Date }) {
  const params = [view.clientId, view.videoId, view.viewedAt.toISOString()];
  // The unique key decides (migration 0029): of identical reports arriving together one inserts.
  const inserted = await insertView(database, params);
  if (inserted !== undefined) return { id: inserted, duplicate: false };
  return { id: (await viewIdOf(database, params))!, duplicate: true };
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
  const first = await markPushOpened(database, params);
  if (first) return { opened_at: first.toISOString(), duplicate: false };
  const earlier = await pushOpenedAt(database, params.slice(0, 2));
  return earlier?.opened_at ? { opened_at: earlier.opened_at.toISOString(), duplicate: true } : null;
}
