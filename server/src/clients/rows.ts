import type { Client } from '@contract/clients';
import type { ClientRow } from './listQueries';

export type { ClientRow };

/** A timestamp column as ISO 8601, or null (also for ±infinity, which JSON cannot carry as a date). */
export function isoOrNull(value: unknown): string | null {
  if (value == null) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function toClient(row: ClientRow): Client {
  return {
    _id: Number(row._id),
    first_name: row.first_name,
    last_name: row.last_name,
    email_address: row.email_address,
    mb_client_id: row.mb_client_id,
    mb_site_id: row.mb_site_id,
    vod_access_level: row.vod_access_level,
    name: row.name,
    client_status: row.client_status,
    first_login: isoOrNull(row.first_login),
    admin_updated_expiration: isoOrNull(row.admin_updated_expiration),
  };
}
