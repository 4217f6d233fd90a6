import { z } from 'zod';
import type { Queryable } from '../db/client';
import type { MindbodyClientRecord, MindbodyVisitRecord } from '../integrations/mindbody';

/** The import's statements on clients, their visits and the debug reports waiting for them (clientImport.ts decides what to write). */

/** int8[] arrives as numbers from PGlite and as strings from node-postgres (its int8 parser is for scalars only). */
const Ids = z.array(z.union([z.number(), z.string()]).transform(Number));

const MatchRow = z.object({ key: z.string(), by_mb: Ids, same_id: z.boolean(), by_email: z.number().nullable() });
export type MatchRow = z.infer<typeof MatchRow>;

/** Rows whose only use is how many a statement returned. */
const Returned = z.object({});
const Inserted = z.object({ id: z.number(), mb_client_id: z.string() });
const Attached = z.object({ id: z.number(), client_id: z.number() });

/**
 * For each incoming client (by its identity key): our rows that are that Mindbody client, by
 * (site, UniqueId) or by Id among rows whose UniqueId we do not know; whether the UniqueId's rows all
 * carry the same Id; and a row known only by the same e-mail.
 */
export function matchIncoming(
  database: Queryable,
  siteId: number,
  incoming: { key: string; mb_client_id: string; unique_id: number | null; email: string | null }[],
): Promise<MatchRow[]> {
  return database.rows(
    MatchRow,
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
    [JSON.stringify(incoming), siteId],
  );
}

/** Writes what Mindbody owns on the matched rows; answers how many changed. */
export async function updateClients(database: Queryable, siteId: number, toUpdate: (MindbodyClientRecord & { id: number })[], now: Date): Promise<number> {
  const rows = await database.rows(
    Returned,
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
  return rows.length;
}

/** Adds the clients no row matched, on the free level. */
export function insertClients(
  database: Queryable,
  siteId: number,
  toInsert: MindbodyClientRecord[],
  now: Date,
): Promise<{ id: number; mb_client_id: string }[]> {
  return database.rows(
    Inserted,
    `INSERT INTO clients (first_name, last_name, email_address, mb_client_id, mb_unique_id, mb_site_id, client_status, mb_last_modified_at,
                            phone, vod_access_level, created_at, updated_at)
       SELECT u.first_name, u.last_name, u.email_address, u.mb_client_id, u.unique_id, $2, u.client_status, u.last_modified_at,
              u.phone, (SELECT sort_order FROM access_levels ORDER BY sort_order LIMIT 1), $3, $3
       FROM jsonb_to_recordset($1::jsonb) AS u(first_name text, last_name text, email_address text, mb_client_id text, unique_id bigint,
                                                client_status text, last_modified_at timestamptz, phone text)
       RETURNING id, mb_client_id`,
    [JSON.stringify(toInsert), siteId, now.toISOString()],
  );
}

/**
 * Replaces one client's visits inside the imported window: new and changed visits are upserted by
 * (site, visit id), visits Mindbody no longer lists in that window are removed.
 */
export async function replaceVisits(
  database: Queryable,
  input: { siteId: number; clientId: number; mbClientId: string; visits: MindbodyVisitRecord[]; from: Date; to: Date; now: Date },
): Promise<number> {
  const { siteId, clientId, visits, now } = input;
  if (visits.length > 0) {
    await database.execute(
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
  await database.execute(
    `DELETE FROM mindbody_visits
     WHERE client_id = $1 AND mb_site_id = $2 AND start_at >= $3 AND start_at <= $4 AND NOT (mb_visit_id = ANY($5::bigint[]))`,
    [clientId, siteId, input.from.toISOString(), input.to.toISOString(), visits.map((visit) => visit.mb_visit_id)],
  );
  return visits.length;
}

/** Attaches the debug reports waiting for these clients (by e-mail, else by Mindbody id); answers the reports attached. */
export function attachReportRows(database: Queryable, clientIds: number[]): Promise<{ id: number; client_id: number }[]> {
  return database.rows(
    Attached,
    `UPDATE debug_records d SET client_id = c.id
     FROM clients c
     WHERE d.client_id IS NULL AND c.id = ANY($1::bigint[])
       AND ((d.email IS NOT NULL AND lower(d.email) = lower(c.email_address))
         OR (d.email IS NULL AND d.mb_client_id IS NOT NULL AND d.mb_client_id = c.mb_client_id))
     RETURNING d.id, d.client_id`,
    [clientIds],
  );
}
