import {
  RECENT_VIDEOS_LIMIT,
  type AutopayEvent,
  type Contract,
  type DebugRecord,
  type OptionVideo,
  type Purchase,
  type RecentlyViewedVideo,
} from '@contract/clients';
import type { Database } from '../db/client';
import { isoOrNull } from './rows';

/** The client-details sections, each one index range scan on the client's id. */

export async function recentlyViewedVideos(database: Database, clientId: number): Promise<RecentlyViewedVideo[]> {
  const rows = await database.query<{ vimeo_video_title: string; viewed_at: Date }>(
    `SELECT v.title AS vimeo_video_title, vv.viewed_at
     FROM video_views vv JOIN videos v ON v.id = vv.video_id
     WHERE vv.client_id = $1
     ORDER BY vv.viewed_at DESC, vv.id DESC
     LIMIT ${RECENT_VIDEOS_LIMIT}`,
    [clientId],
  );
  return rows.map((row) => ({ vimeo_video_title: row.vimeo_video_title, viewed_at: isoOrNull(row.viewed_at)! }));
}

export async function favoriteVideos(database: Database, clientId: number): Promise<OptionVideo[]> {
  return database.query<OptionVideo>(
    `SELECT v.vimeo_video_id, v.title, v.instructor, v.duration
     FROM favorites f JOIN videos v ON v.id = f.video_id
     WHERE f.client_id = $1 AND v.deleted_at IS NULL
     ORDER BY f.created_at DESC, v.title`,
    [clientId],
  );
}

export async function purchases(database: Database, clientId: number): Promise<Purchase[]> {
  const rows = await database.query<Omit<Purchase, 'purchased_at' | 'expires_at'> & { purchased_at: Date | null; expires_at: Date | null }>(
    `SELECT p.revenue_cat_user_id, al.name, p.subscription_identifier, p.upsell_source,
            p.purchased_at, p.expires_at, p.subscription_status, p.rc_environment AS environment
     FROM purchases p LEFT JOIN access_levels al ON al.id = p.access_level_id
     WHERE p.client_id = $1
     ORDER BY p.purchased_at DESC NULLS LAST, p.id DESC`,
    [clientId],
  );
  return rows.map((row) => ({ ...row, purchased_at: isoOrNull(row.purchased_at), expires_at: isoOrNull(row.expires_at) }));
}

export async function debugRecords(database: Database, clientId: number, page: number, limit: number): Promise<DebugRecord[]> {
  const rows = await database.query<DebugRecord & { sent_at: Date | null }>(
    `SELECT email, mb_client_id, app_access_level, firebase_token_new, firebase_token_current, platform,
            platform_version, is_ipad, screen_width, screen_height, device_width, device_height, ip,
            app_version, sent_at, device_constants, network_info
     FROM debug_records
     WHERE client_id = $1
     ORDER BY created_at DESC, sent_at DESC NULLS LAST, id DESC
     LIMIT $2 OFFSET $3`,
    [clientId, limit, (page - 1) * limit],
  );
  return rows.map((row) => ({ ...row, sent_at: isoOrNull(row.sent_at) }));
}

interface ContractRow extends Omit<Contract, 'agreement_date' | 'start_date' | 'end_date' | 'termination_date' | 'upcoming_autopay_events'> {
  agreement_date: Date | null;
  start_date: Date | null;
  end_date: Date | null;
  termination_date: Date | null;
  upcoming_autopay_events: unknown;
}

/** Stored MindBody events carry more fields (PaymentMethod, ...); the console needs these two, by date. */
export function autopayEvents(stored: unknown): AutopayEvent[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .filter((event): event is Record<string, unknown> => typeof event === 'object' && event !== null)
    .map((event) => ({ ChargeAmount: Number(event.ChargeAmount ?? 0), ScheduleDate: String(event.ScheduleDate ?? '') }))
    .filter((event) => Number.isFinite(event.ChargeAmount) && event.ScheduleDate !== '')
    .sort((a, b) => a.ScheduleDate.localeCompare(b.ScheduleDate));
}

export async function contracts(database: Database, clientId: number): Promise<Contract[]> {
  const rows = await database.query<ContractRow>(
    `SELECT agreement_date, autopay_status, contract_name, end_date, id, original_location_id, start_date, site_id,
            upcoming_autopay_events, contract_id, termination_date
     FROM contracts
     WHERE client_id = $1
     ORDER BY start_date DESC NULLS LAST, id DESC`,
    [clientId],
  );
  return rows.map((row) => ({
    agreement_date: isoOrNull(row.agreement_date),
    autopay_status: row.autopay_status,
    contract_name: row.contract_name,
    end_date: isoOrNull(row.end_date),
    id: Number(row.id),
    original_location_id: row.original_location_id,
    start_date: isoOrNull(row.start_date),
    site_id: row.site_id,
    upcoming_autopay_events: autopayEvents(row.upcoming_autopay_events),
    contract_id: row.contract_id === null ? null : Number(row.contract_id),
    termination_date: isoOrNull(row.termination_date),
  }));
}
