import type { Database } from '../db/client';
import type { MindbodyClientRecord, MindbodyVisitRecord } from '../integrations/mindbody';
import { settleAttachedReports } from '../appReports/retention';
import { mergeClients } from './merge';
import { emailId, erasedHashes, mindbodyIds, tombstoneHash, usable } from '../lib/tombstones';

export interface UpsertResult {
  created: number;
  updated: number;
  /** Rows merged away because they were the same Mindbody client as another. */
  merged: number;
  /** mb_client_id → our client id, for every client of the page. */
  ids: Map<string, number>;
}

interface MatchRow {
  key: string;
  by_mb: (number | string)[];
  same_id: boolean;
  by_email: number | string | null;
}

/** One Mindbody client per (site, UniqueId); a record without UniqueId is known by its Id. */
const identityKey = (client: MindbodyClientRecord) => (client.unique_id !== null ? `u:${client.unique_id}` : `i:${client.mb_client_id}`);

/**
 * Upserts one page of Mindbody clients. A client is matched by (site, UniqueId), which Mindbody
 * never changes, then by its Id among rows whose UniqueId we do not know yet (rows from before
 * UniqueId was stored learn it here), so a changed Id (UpdateClient NewId) updates the row instead
 * of adding one. When several rows match, they are one person and are merged (merge.ts). Only what
 * Mindbody owns is written (names, e-mail, ids, status); the VOD access levels, overrides,
 * first_login and RevenueCat id are ours and never touched. A client we know only by e-mail (no
 * MindBody id yet) is linked to its Mindbody record instead of duplicated. An empty value from
 * Mindbody does not erase ours.
 */
/** The page without the clients that were erased here: an import must not bring their data back (docs/data-rights.md). */
async function withoutErased(database: Database, siteId: number, page: MindbodyClientRecord[]): Promise<MindbodyClientRecord[]> {
  const hashesOf = (client: MindbodyClientRecord) =>
    usable([emailId(client.email_address), ...mindbodyIds(siteId, client.mb_client_id, client.unique_id)]).map(tombstoneHash);
  const erased = await erasedHashes(database, page.flatMap(hashesOf));
  return erased.size === 0 ? page : page.filter((client) => !hashesOf(client).some((hash) => erased.has(hash)));
}

export async function upsertClients(database: Database, siteId: number, fullPage: MindbodyClientRecord[], now: Date): Promise<UpsertResult> {
  const page = await withoutErased(database, siteId, fullPage);
  // The last record wins when a page repeats a client.
  const incoming = [...new Map(page.map((client) => [identityKey(client), client])).values()];
  const ids = new Map<string, number>();
  if (incoming.length === 0) return { created: 0, updated: 0, merged: 0, ids };

  const matches = await database.query<MatchRow>(
    `SELECT i.key,
            ARRAY(SELECT c.id FROM clients c
                  WHERE c.mb_site_id = $2
                    AND ((i.unique_id IS NOT NULL AND c.mb_unique_id = i.unique_id)
                      OR (c.mb_client_id = i.mb_client_id AND (c.mb_unique_id IS NULL OR i.unique_id IS NULL OR c.mb_unique_id = i.unique_id)))
                  ORDER BY c.id) AS by_mb,
            NOT EXISTS (SELECT 1 FROM clients c WHERE c.mb_site_id = $2 AND i.unique_id IS NOT NULL AND c.mb_unique_id = i.unique_id
                          AND c.mb_client_id IS DISTINCT FROM i.mb_client_id) AS same_id,
            CASE WHEN i.email IS NULL THEN NULL ELSE
              (SELECT c.id FROM clients c WHERE lower(c.email_address) = lower(i.email) AND c.mb_client_id IS NULL ORDER BY c.id LIMIT 1) END AS by_email
     FROM jsonb_to_recordset($1::jsonb) AS i(key text, mb_client_id text, unique_id bigint, email text)`,
    [
      JSON.stringify(
        incoming.map((client) => ({ key: identityKey(client), mb_client_id: client.mb_client_id, unique_id: client.unique_id, email: client.email_address })),
      ),
      siteId,
    ],
  );
  const claimed = new Set<number>();
  const toUpdate: (MindbodyClientRecord & { id: number })[] = [];
  const toInsert: MindbodyClientRecord[] = [];
  const byKey = new Map(incoming.map((client) => [identityKey(client), client]));
  let merged = 0;
  for (const match of matches) {
    const client = byKey.get(match.key)!;
    const candidates = match.by_mb.map(Number).filter((id) => !claimed.has(id));
    let id: number | null = null;
    if (candidates.length > 1) {
      const reason = client.unique_id === null || match.same_id ? 'same_client_id' : 'same_unique_id';
      id = await mergeClients(database, candidates, { siteId, mbClientId: client.mb_client_id, uniqueId: client.unique_id }, reason, now);
      merged += candidates.length - 1;
    } else if (candidates.length === 1) {
      id = candidates[0]!;
    } else {
      const byEmail = match.by_email === null ? null : Number(match.by_email);
      if (byEmail !== null && !claimed.has(byEmail)) id = byEmail;
    }
    if (id === null) {
      toInsert.push(client);
    } else {
      claimed.add(id);
      ids.set(client.mb_client_id, id);
      toUpdate.push({ ...client, id });
    }
  }

  let updated = 0;
  if (toUpdate.length > 0) {
    const rows = await database.query(
      `UPDATE clients c
       SET first_name = COALESCE(u.first_name, c.first_name),
           last_name = COALESCE(u.last_name, c.last_name),
           email_address = COALESCE(u.email_address, c.email_address),
           mb_client_id = u.mb_client_id,
           mb_unique_id = COALESCE(u.unique_id, c.mb_unique_id),
           mb_site_id = $2,
           client_status = COALESCE(u.client_status, c.client_status),
           mb_last_modified_at = COALESCE(u.last_modified_at, c.mb_last_modified_at),
           phone = u.phone,
           updated_at = $3
       FROM jsonb_to_recordset($1::jsonb) AS u(id bigint, first_name text, last_name text, email_address text, mb_client_id text,
                                                unique_id bigint, client_status text, last_modified_at timestamptz, phone text)
       WHERE c.id = u.id AND c.erased_at IS NULL
         AND (c.first_name IS DISTINCT FROM COALESCE(u.first_name, c.first_name)
           OR c.last_name IS DISTINCT FROM COALESCE(u.last_name, c.last_name)
           OR c.email_address IS DISTINCT FROM COALESCE(u.email_address, c.email_address)
           OR c.mb_client_id IS DISTINCT FROM u.mb_client_id
           OR c.mb_unique_id IS DISTINCT FROM COALESCE(u.unique_id, c.mb_unique_id)
           OR c.mb_last_modified_at IS DISTINCT FROM COALESCE(u.last_modified_at, c.mb_last_modified_at)
           OR c.mb_site_id IS DISTINCT FROM $2
           OR c.client_status IS DISTINCT FROM COALESCE(u.client_status, c.client_status)
           OR c.phone IS DISTINCT FROM u.phone)
       RETURNING c.id`,
      [JSON.stringify(toUpdate), siteId, now.toISOString()],
    );
    updated = rows.length;
  }

  if (toInsert.length > 0) {
    // A new client starts on the free level; from then on the level is ours (purchases, overrides).
    const rows = await database.query<{ id: number; mb_client_id: string }>(
      `INSERT INTO clients (first_name, last_name, email_address, mb_client_id, mb_unique_id, mb_site_id, client_status, mb_last_modified_at,
                            phone, vod_access_level, created_at, updated_at)
       SELECT u.first_name, u.last_name, u.email_address, u.mb_client_id, u.unique_id, $2, u.client_status, u.last_modified_at,
              u.phone, (SELECT sort_order FROM access_levels ORDER BY sort_order LIMIT 1), $3, $3
       FROM jsonb_to_recordset($1::jsonb) AS u(first_name text, last_name text, email_address text, mb_client_id text, unique_id bigint,
                                                client_status text, last_modified_at timestamptz, phone text)
       RETURNING id, mb_client_id`,
      [JSON.stringify(toInsert), siteId, now.toISOString()],
    );
    for (const row of rows) ids.set(row.mb_client_id, Number(row.id));
  }
  return { created: toInsert.length, updated, merged, ids };
}

/**
 * Replaces one client's visits inside the imported window: new and changed visits are upserted by
 * (site, visit id), visits Mindbody no longer lists in that window are removed.
 */
export async function replaceVisits(
  database: Database,
  input: { siteId: number; clientId: number; mbClientId: string; visits: MindbodyVisitRecord[]; from: Date; to: Date; now: Date },
): Promise<number> {
  const { siteId, clientId, visits, now } = input;
  if (visits.length > 0) {
    await database.query(
      `INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, mb_client_id, class_id, class_name, location_id, staff_id,
                                    start_at, end_at, attendance, signed_in, missed, late_cancelled, make_up, web_signup,
                                    appointment_status, last_modified_at, imported_at)
       SELECT $2, $3, v.mb_visit_id, COALESCE(v.mb_client_id, $4), v.class_id, v.class_name, v.location_id, v.staff_id,
              v.start_at, v.end_at, v.attendance, v.signed_in, v.missed, v.late_cancelled, v.make_up, v.web_signup,
              v.appointment_status, v.last_modified_at, $5
       FROM jsonb_to_recordset($1::jsonb) AS v(mb_visit_id bigint, mb_client_id text, class_id bigint, class_name text, location_id integer,
              staff_id bigint, start_at timestamptz, end_at timestamptz, attendance text, signed_in boolean, missed boolean,
              late_cancelled boolean, make_up boolean, web_signup boolean, appointment_status text, last_modified_at timestamptz)
       ON CONFLICT (mb_site_id, mb_visit_id) DO UPDATE SET
         client_id = EXCLUDED.client_id, mb_client_id = EXCLUDED.mb_client_id, class_id = EXCLUDED.class_id,
         class_name = EXCLUDED.class_name, location_id = EXCLUDED.location_id, staff_id = EXCLUDED.staff_id,
         start_at = EXCLUDED.start_at, end_at = EXCLUDED.end_at, attendance = EXCLUDED.attendance,
         signed_in = EXCLUDED.signed_in, missed = EXCLUDED.missed, late_cancelled = EXCLUDED.late_cancelled,
         make_up = EXCLUDED.make_up, web_signup = EXCLUDED.web_signup, appointment_status = EXCLUDED.appointment_status,
         last_modified_at = EXCLUDED.last_modified_at, imported_at = EXCLUDED.imported_at`,
      [JSON.stringify([...new Map(visits.map((visit) => [visit.mb_visit_id, visit])).values()]), clientId, siteId, input.mbClientId, now.toISOString()],
    );
  }
  await database.query(
    `DELETE FROM mindbody_visits
     WHERE client_id = $1 AND mb_site_id = $2 AND start_at >= $3 AND start_at <= $4 AND NOT (mb_visit_id = ANY($5::bigint[]))`,
    [clientId, siteId, input.from.toISOString(), input.to.toISOString(), visits.map((visit) => visit.mb_visit_id)],
  );
  return visits.length;
}

/** Debug reports the app sent before their client existed get attached to it now. */
export async function attachDebugRecords(database: Database, clientIds: number[], now: Date): Promise<number> {
  if (clientIds.length === 0) return 0;
  const rows = await database.query<{ id: number; client_id: number }>(
    `UPDATE debug_records d SET client_id = c.id
     FROM clients c
     WHERE d.client_id IS NULL AND c.id = ANY($1::bigint[])
       AND ((d.email IS NOT NULL AND lower(d.email) = lower(c.email_address))
         OR (d.email IS NULL AND d.mb_client_id IS NOT NULL AND d.mb_client_id = c.mb_client_id))
     RETURNING d.id, d.client_id`,
    [clientIds],
  );
  await settleAttachedReports(database, rows, now);
  return rows.length;
}
