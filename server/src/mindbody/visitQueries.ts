import { z } from 'zod';
import type { Database } from '../db/client';

/** The queue of clients whose visits wait to be fetched (clients.mb_visits_due_since). */

/** The listing saw these clients: their visits are fetched by this run or, budget permitting, a later one. */
export async function markVisitsDue(database: Database, clientIds: number[], now: Date): Promise<void> {
  if (clientIds.length === 0) return;
  await database.execute('UPDATE clients SET mb_visits_due_since = $2 WHERE id = ANY($1::bigint[]) AND mb_visits_due_since IS NULL', [
    clientIds,
    now.toISOString(),
  ]);
}

const DueClient = z.object({ id: z.number(), mb_client_id: z.string(), mb_unique_id: z.number().nullable() });
export type DueClient = z.infer<typeof DueClient>;

/**
 * Clients whose visits wait, most recently active first: the latest of their last class and
 * Mindbody's last change to them, so a short budget goes to the clients the messages are about.
 */
export async function dueClients(database: Database, siteId: number, limit: number): Promise<DueClient[]> {
  return database.rows(
    DueClient,
    `SELECT c.id, c.mb_client_id, c.mb_unique_id FROM clients c
     WHERE c.mb_site_id = $1 AND c.mb_visits_due_since IS NOT NULL AND c.mb_client_id IS NOT NULL
     ORDER BY GREATEST((SELECT max(v.start_at) FROM mindbody_visits v WHERE v.client_id = c.id), c.mb_last_modified_at) DESC NULLS LAST, c.id
     LIMIT $2`,
    [siteId, limit],
  );
}

const Count = z.object({ n: z.number() });
const ClientId = z.object({ client_id: z.number() });

export async function clearVisitsDue(database: Database, clientId: number): Promise<void> {
  await database.execute('UPDATE clients SET mb_visits_due_since = NULL WHERE id = $1', [clientId]);
}

export async function countVisitsDue(database: Database, siteId: number): Promise<number> {
  const [row] = await database.rows(Count, 'SELECT count(*)::int AS n FROM clients WHERE mb_site_id = $1 AND mb_visits_due_since IS NOT NULL', [siteId]);
  return row?.n ?? 0;
}

/**
 * Rows whose UniqueId we never learned (their Id is no longer listed: changed or removed) that hold
 * one of these visits. Mindbody gives a visit one Id per site for good, so the row that had it is
 * the same client under its earlier Id.
 */
export async function rowsSharingVisits(database: Database, siteId: number, clientId: number, visitIds: number[]): Promise<number[]> {
  if (visitIds.length === 0) return [];
  const rows = await database.rows(
    ClientId,
    `SELECT DISTINCT v.client_id FROM mindbody_visits v JOIN clients c ON c.id = v.client_id
     WHERE v.mb_site_id = $1 AND v.mb_visit_id = ANY($2::bigint[]) AND v.client_id <> $3 AND c.mb_site_id = $1 AND c.mb_unique_id IS NULL`,
    [siteId, visitIds, clientId],
  );
  return rows.map((row) => row.client_id);
}
