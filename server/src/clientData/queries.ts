import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable } from '../db/client';

/** The data-rights area's statements: who looked at a client, data requests, retention settings and deletions, outside erasure work. */

/** Deletions in this transaction leave the dashboard's plays per day as they are (migration 0085). */
export const keepCounts = (tx: Queryable) => tx.execute("SELECT set_config('studio.keep_counts', 'on', true)");

const Exists = z.object({});

/** Whether a client row with this id exists (erased ones too). */
export async function clientExists(db: Queryable, clientId: number): Promise<boolean> {
  return (await db.rows(Exists, 'SELECT id FROM clients WHERE id = $1', [clientId])).length > 0;
}

// Who looked

export const insertLooks = (db: Queryable, look: { staffId: number; staffEmail: string; clientIds: number[]; hour: Date; kind: string; at: Date }) =>
  db.execute(
    `INSERT INTO client_looks (staff_user_id, client_id, hour, staff_email, kind, first_at)
     SELECT $1, c.id, $3, $4, $5, $6 FROM clients c WHERE c.id = ANY($2::bigint[])
     ON CONFLICT (staff_user_id, client_id, hour) DO NOTHING`,
    [look.staffId, look.clientIds, look.hour.toISOString(), look.staffEmail, look.kind, look.at.toISOString()],
  );

const LookRow = z.object({ staff_email: z.string(), hour: timestamp, first_at: timestamp, kind: z.enum(['page', 'export', 'list_export']) });

export const lookRows = (db: Queryable, clientId: number) =>
  db.rows(LookRow, 'SELECT staff_email, hour, first_at, kind FROM client_looks WHERE client_id = $1 ORDER BY hour DESC, first_at DESC LIMIT 200', [clientId]);

// Data requests

const RequestRow = z.object({
  id: z.number(),
  kind: z.enum(['access', 'erasure']),
  client_id: z.number(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  erased_at: timestamp.nullable(),
  received_at: timestamp,
  due_at: timestamp,
  note: z.string().nullable(),
  logged_by: z.string().nullable(),
  handled_at: timestamp.nullable(),
  handled_by: z.string().nullable(),
});
export type RequestRow = z.infer<typeof RequestRow>;

const SELECT_REQUEST = `SELECT r.*, c.first_name, c.last_name, c.erased_at FROM data_requests r JOIN clients c ON c.id = r.client_id`;

/** Open requests first, the soonest due first; then the handled ones, the latest handled first. */
export const requestRows = (db: Queryable, openOnly: boolean) =>
  db.rows(
    RequestRow,
    `${SELECT_REQUEST} ${openOnly ? 'WHERE r.handled_at IS NULL' : ''}
     ORDER BY r.handled_at IS NOT NULL, CASE WHEN r.handled_at IS NULL THEN r.due_at END, r.handled_at DESC, r.id DESC LIMIT 500`,
  );

export async function requestRow(db: Queryable, id: number): Promise<RequestRow | undefined> {
  const [row] = await db.rows(RequestRow, `${SELECT_REQUEST} WHERE r.id = $1`, [id]);
  return row;
}

const Id = z.object({ id: z.number() });
const ClientId = z.object({ client_id: z.number() });

export async function insertRequest(
  db: Queryable,
  request: { kind: 'access' | 'erasure'; clientId: number; receivedAt: Date; dueAt: Date; note: string | null; loggedBy: string | null },
): Promise<number> {
  const [row] = await db.rows(
    Id,
    `INSERT INTO data_requests (kind, client_id, received_at, due_at, note, logged_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [request.kind, request.clientId, request.receivedAt.toISOString(), request.dueAt.toISOString(), request.note, request.loggedBy],
  );
  return row!.id;
}

/** Marks a request handled (the first time only); its client, or undefined when there is no such request. */
export async function markRequestHandled(db: Queryable, id: number, at: Date, by: string | null): Promise<number | undefined> {
  const [row] = await db.rows(
    ClientId,
    'UPDATE data_requests SET handled_at = COALESCE(handled_at, $2), handled_by = COALESCE(handled_by, $3) WHERE id = $1 RETURNING client_id',
    [id, at.toISOString(), by],
  );
  return row?.client_id;
}

/** Answers the client's oldest open request of that kind; false when there is none. */
export async function handleOpenRequest(
  tx: Queryable,
  request: { kind: 'access' | 'erasure'; clientId: number; by: string | null; at: Date },
): Promise<boolean> {
  const updated = await tx.rows(
    Id,
    `UPDATE data_requests SET handled_at = $3, handled_by = $4
     WHERE id = (SELECT id FROM data_requests WHERE client_id = $1 AND kind = $2 AND handled_at IS NULL ORDER BY received_at LIMIT 1)
     RETURNING id`,
    [request.clientId, request.kind, request.at.toISOString(), request.by],
  );
  return updated.length > 0;
}

/** A request received and handled at once. */
export const insertHandledRequest = (tx: Queryable, request: { kind: 'access' | 'erasure'; clientId: number; by: string | null; at: Date; dueAt: Date }) =>
  tx.execute(`INSERT INTO data_requests (kind, client_id, received_at, due_at, logged_by, handled_at, handled_by) VALUES ($1, $2, $3, $4, $5, $3, $5)`, [
    request.kind,
    request.clientId,
    request.at.toISOString(),
    request.dueAt.toISOString(),
    request.by,
  ]);

// Retention

const Setting = z.object({ value: z.string() });

export async function settingValue(db: Queryable, key: string): Promise<string | undefined> {
  const [row] = await db.rows(Setting, 'SELECT value FROM app_settings WHERE key = $1', [key]);
  return row?.value;
}

export const saveSetting = (db: Queryable, key: string, value: string) =>
  db.execute(`INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [key, value]);

/** What one retention setting deletes: rows of `table` older than the cutoff by `at`, among those `where` selects. */
export interface RetentionTarget {
  table: string;
  at: string;
  where: string;
  keepCounts?: boolean;
}

/** Deletes the oldest `batch` rows of a target older than `cutoff`; answers how many went. */
export async function deleteOlderBatch(tx: Queryable, target: RetentionTarget, cutoff: Date, batch: number): Promise<number> {
  if (target.keepCounts) await keepCounts(tx);
  const rows = await tx.rows(
    Id,
    `DELETE FROM ${target.table} WHERE id IN (SELECT id FROM ${target.table} WHERE ${target.at} < $1 AND ${target.where} ORDER BY ${target.at} LIMIT ${batch}) RETURNING id`,
    [cutoff.toISOString()],
  );
  return rows.length;
}

// Outside erasure work

const OutsideTask = z.object({ id: z.number(), service: z.enum(['algolia', 'revenuecat']), target: z.string() });

export const pendingOutsideTasks = (db: Queryable, clientId: number) =>
  db.rows(OutsideTask, `SELECT id, service, target FROM erasure_outside WHERE client_id = $1 AND state <> 'done' ORDER BY id`, [clientId]);

/** The id goes with the work: nothing of it needs keeping once the service forgot it. */
export const outsideTaskDone = (db: Queryable, taskId: number, at: Date) =>
  db.execute(`UPDATE erasure_outside SET state = 'done', target = '', attempts = attempts + 1, last_error = NULL, done_at = $2 WHERE id = $1`, [
    taskId,
    at.toISOString(),
  ]);

export const outsideTaskFailed = (db: Queryable, taskId: number, message: string) =>
  db.execute(`UPDATE erasure_outside SET state = 'failed', attempts = attempts + 1, last_error = $2 WHERE id = $1`, [taskId, message]);

/** Erasures with outside work not done. */
export async function unfinishedErasures(db: Queryable): Promise<number[]> {
  return (await db.rows(ClientId, `SELECT DISTINCT client_id FROM erasure_outside WHERE state <> 'done'`)).map((row) => row.client_id);
}
