import { z } from 'zod';
import type { Database, Queryable } from '../db/client';

const LockedClientRow = z.object({ id: z.number(), erased: z.boolean() });
const EventBodyRow = z.object({ client_id: z.number(), body: z.unknown() });
const ChangeRow = z.object({ day: z.string(), kind: z.string(), reason: z.string(), n: z.number(), amount: z.string() });
const CellRow = z.object({ kind: z.string(), cohort: z.string(), month: z.string() });
export type Cell = z.infer<typeof CellRow>;
const ClientIdRow = z.object({ client_id: z.number() });

/** Columns of kept totals that move by a difference: key parts, counts and amounts (numeric text). */
export interface Moves {
  keys: [string[], string[], string[]];
  n: number[];
  amounts: string[];
}

/** The clients that exist of `ids`, locked in id order, with whether each was erased. */
export async function lockRevenueClients(tx: Queryable, ids: number[]) {
  return tx.rows(LockedClientRow, 'SELECT id, erased_at IS NOT NULL AS erased FROM clients WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [ids]);
}

/** The bodies of the clients' processed events. */
export async function processedEventBodies(tx: Queryable, ids: number[]) {
  return tx.rows(EventBodyRow, `SELECT client_id, body FROM revenuecat_events WHERE client_id = ANY($1::bigint[]) AND state = 'processed'`, [ids]);
}

/** Deletes the clients' kept changes, answering them. */
export async function deleteChanges(tx: Queryable, ids: number[]) {
  return tx.rows(
    ChangeRow,
    `DELETE FROM revenue_changes WHERE client_id = ANY($1::bigint[]) RETURNING to_char(day, 'YYYY-MM-DD') AS day, kind, reason, n, amount::text AS amount`,
    [ids],
  );
}

export async function insertChanges(tx: Queryable, columns: [number[], string[], string[], string[], number[], string[]]) {
  await tx.execute(
    `INSERT INTO revenue_changes (client_id, at, day, kind, reason, n, amount)
       SELECT client_id, at, (at AT TIME ZONE 'UTC')::date, kind, reason, n, amount
       FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::int[], $6::numeric[]) AS x(client_id, at, kind, reason, n, amount)`,
    columns,
  );
}

/** Moves the day totals by these differences (rows in key order). */
export async function moveDays(tx: Queryable, moves: Moves) {
  await tx.execute(
    `INSERT INTO revenue_days AS d (day, kind, reason, n, amount)
     SELECT * FROM unnest($1::date[], $2::text[], $3::text[], $4::bigint[], $5::numeric[])
     ON CONFLICT (day, kind, reason) DO UPDATE SET n = d.n + EXCLUDED.n, amount = d.amount + EXCLUDED.amount`,
    [...moves.keys, moves.n, moves.amounts],
  );
}

/** Moves the month totals by these differences (rows in key order). */
export async function moveMonths(tx: Queryable, moves: Moves) {
  await tx.execute(
    `INSERT INTO revenue_months AS m (month, kind, reason, n, amount)
       SELECT * FROM unnest($1::date[], $2::text[], $3::text[], $4::bigint[], $5::numeric[])
       ON CONFLICT (month, kind, reason) DO UPDATE SET n = m.n + EXCLUDED.n, amount = m.amount + EXCLUDED.amount`,
    [...moves.keys, moves.n, moves.amounts],
  );
}

export async function deletePeriods(tx: Queryable, ids: number[]) {
  await tx.execute('DELETE FROM revenue_periods WHERE client_id = ANY($1::bigint[])', [ids]);
}

export async function insertPeriods(tx: Queryable, columns: unknown[][]) {
  await tx.execute(
    `INSERT INTO revenue_periods (client_id, subscription, transaction, kind, product, start_at, end_at, mrr_usd)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::numeric[])`,
    columns,
  );
}

/** Moves cohort cells by these differences (rows in key order). */
export async function moveCohortCells(tx: Queryable, keys: [string[], string[], string[]], n: number[]) {
  await tx.execute(
    `INSERT INTO revenue_cohort_cells AS c (kind, cohort, month, n)
     SELECT * FROM unnest($1::text[], $2::date[], $3::date[], $4::bigint[])
     ON CONFLICT (kind, cohort, month) DO UPDATE SET n = c.n + EXCLUDED.n`,
    [...keys, n],
  );
}

/** Deletes the clients' cohort months, answering them. */
export async function deleteClientMonths(tx: Queryable, ids: number[]): Promise<Cell[]> {
  return tx.rows(
    CellRow,
    `DELETE FROM revenue_client_months WHERE client_id = ANY($1::bigint[])
     RETURNING kind, to_char(cohort, 'YYYY-MM-DD') AS cohort, to_char(month, 'YYYY-MM-DD') AS month`,
    [ids],
  );
}

export async function deleteRevenueClients(tx: Queryable, ids: number[]) {
  await tx.execute('DELETE FROM revenue_clients WHERE client_id = ANY($1::bigint[])', [ids]);
}

export async function insertRevenueClients(tx: Queryable, clients: number[], cohorts: (string | null)[]) {
  await tx.execute('INSERT INTO revenue_clients (client_id, cohort) SELECT * FROM unnest($1::bigint[], $2::date[])', [clients, cohorts]);
}

/** The paying months given, and the active months of `payingClients` from their cohort on; answers them. */
export async function insertClientMonths(tx: Queryable, paying: [number[], string[], string[]], payingClients: number[]): Promise<Cell[]> {
  return tx.rows(
    CellRow,
    `INSERT INTO revenue_client_months (client_id, kind, cohort, month)
       SELECT client_id, 'paying', cohort, month FROM unnest($1::bigint[], $2::date[], $3::date[]) AS x(client_id, cohort, month)
       UNION ALL
       SELECT m.client_id, 'active', rc.cohort, m.month FROM client_active_months m JOIN revenue_clients rc ON rc.client_id = m.client_id
       WHERE m.client_id = ANY($4::bigint[]) AND m.month >= rc.cohort
       RETURNING kind, to_char(cohort, 'YYYY-MM-DD') AS cohort, to_char(month, 'YYYY-MM-DD') AS month`,
    [...paying, payingClients],
  );
}

/** The events (but TRANSFERs) of the clients with these RevenueCat ids move to `clientId`; answers the clients they came from. */
export async function moveEventsTo(database: Database, fromUserIds: string[], clientId: number): Promise<number[]> {
  const moved = await database.rows(
    ClientIdRow,
    `WITH source AS (SELECT id FROM clients WHERE revenue_cat_user_id = ANY($1::text[]) AND id <> $2)
       UPDATE revenuecat_events e SET client_id = $2 FROM source WHERE e.client_id = source.id AND e.type <> 'TRANSFER'
       RETURNING source.id AS client_id`,
    [fromUserIds, clientId],
  );
  return moved.map((row) => row.client_id);
}

/** The client a processed TRANSFER dated at or after `atMs` moved this client's purchases to, if any. */
export async function laterTransferTarget(database: Database, clientId: number, atMs: number): Promise<number | undefined> {
  const [later] = await database.rows(
    ClientIdRow,
    `SELECT t.client_id FROM clients c JOIN revenuecat_events t ON t.type = 'TRANSFER' AND t.state = 'processed' AND t.client_id IS NOT NULL
         AND t.client_id <> c.id AND (t.body->'event'->'transferred_from') @> jsonb_build_array(c.revenue_cat_user_id)
       WHERE c.id = $1 AND c.revenue_cat_user_id IS NOT NULL AND t.event_at >= to_timestamp($2::double precision / 1000)
       ORDER BY t.event_at DESC, t.id DESC LIMIT 1`,
    [clientId, atMs],
  );
  return later?.client_id;
}

export async function moveEventTo(database: Database, eventId: string, clientId: number) {
  await database.execute('UPDATE revenuecat_events SET client_id = $2 WHERE event_id = $1', [eventId, clientId]);
}
