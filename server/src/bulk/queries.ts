import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { ClientFilter } from '@contract/clientFilter';
import { selectTargetClients } from '../clients/filterQueries';
import type { Queryable } from '../db/client';

/** Bulk actions and their targets (override.ts). */

/** Targets read per batch of grants. */
const BATCH = 100;

const EarlierRow = z.object({ id: z.number(), request_digest: z.string().nullable() });
const SortOrderRow = z.object({ sort_order: z.number() });
const IdRow = z.object({ id: z.number() });
const CountRow = z.object({ n: z.number() });
const TotalRow = z.object({ total: z.number() });
const ClientIdRow = z.object({ client_id: z.number() });
const PendingRow = z.object({ '?column?': z.number() });
const ActionRow = z.object({
  id: z.number(),
  status: z.enum(['running', 'done']),
  total: z.number(),
  created_at: timestamp,
  finished_at: timestamp.nullable(),
});
const StatusCountRow = z.object({ status: z.string(), n: z.number() });
const ErrorRow = z.object({ client_id: z.number(), error: z.string() });
const RunningRow = z.object({
  params: z.object({ new_vod_access_level: z.number(), adminOverrideDate: z.string() }),
  staff_user_id: z.number().nullable(),
  staff_email: z.string().nullable(),
  ip: z.string().nullable(),
});

/** The bulk action an earlier request with this idempotency key created. */
export async function bulkActionByKey(db: Queryable, key: string): Promise<z.infer<typeof EarlierRow> | undefined> {
  const [row] = await db.rows(EarlierRow, 'SELECT id, request_digest FROM bulk_actions WHERE idempotency_key = $1', [key]);
  return row;
}

export async function accessLevelOrders(db: Queryable): Promise<number[]> {
  return (await db.rows(SortOrderRow, 'SELECT sort_order FROM access_levels')).map((row) => row.sort_order);
}

export interface NewBulkAction {
  params: string;
  filter: string | null;
  staff_user_id: number | null;
  staff_email: string | null;
  ip: string | null;
  created_at: string;
  idempotency_key: string | null;
  request_digest: string | null;
}

/** A running override action; answers its id. */
export async function insertOverrideAction(tx: Queryable, action: NewBulkAction): Promise<number> {
  const [row] = await tx.rows(
    IdRow,
    `INSERT INTO bulk_actions (kind, params, filter, status, staff_user_id, staff_email, ip, created_at, idempotency_key, request_digest)
       VALUES ('override', $1::jsonb, $2::jsonb, 'running', $3, $4, $5, $6, $7, $8) RETURNING id`,
    [action.params, action.filter, action.staff_user_id, action.staff_email, action.ip, action.created_at, action.idempotency_key, action.request_digest],
  );
  return row!.id;
}

/** Fixes the action's targets: the picked clients that exist, or those the filter selects at `now`; answers how many. */
export async function insertTargets(tx: Queryable, bulkId: number, target: { clientIds?: number[]; filter?: ClientFilter }, now: Date): Promise<number> {
  const { select, params } = selectTargetClients(bulkId, target, now);
  const [added] = await tx.rows(
    CountRow,
    `WITH added AS (INSERT INTO bulk_action_targets (bulk_action_id, client_id) ${select} RETURNING 1) SELECT count(*)::int AS n FROM added`,
    params,
  );
  return added!.n;
}

export const setTotal = (tx: Queryable, bulkId: number, total: number) => tx.execute('UPDATE bulk_actions SET total = $2 WHERE id = $1', [bulkId, total]);

export async function actionTotal(db: Queryable, id: number): Promise<number> {
  const [{ total }] = (await db.rows(TotalRow, 'SELECT total FROM bulk_actions WHERE id = $1', [id])) as [{ total: number }];
  return total;
}

export const markTarget = (tx: Queryable, id: number, clientId: number, error: string | null) =>
  tx.execute("UPDATE bulk_action_targets SET status = $3, error = $4 WHERE bulk_action_id = $1 AND client_id = $2 AND status = 'pending'", [
    id,
    clientId,
    error ? 'failed' : 'done',
    error,
  ]);

/** The next batch of pending targets, by client id. */
export async function pendingTargets(db: Queryable, id: number): Promise<number[]> {
  const batch = await db.rows(
    ClientIdRow,
    `SELECT client_id FROM bulk_action_targets WHERE bulk_action_id = $1 AND status = 'pending' ORDER BY client_id LIMIT ${BATCH}`,
    [id],
  );
  return batch.map((row) => row.client_id);
}

export const markActionDone = (tx: Queryable, id: number, at: Date) =>
  tx.execute("UPDATE bulk_actions SET status = 'done', finished_at = $2 WHERE id = $1 AND status = 'running'", [id, at.toISOString()]);

/** Whether the target is still pending, locked until the transaction ends. */
export async function lockPendingTarget(tx: Queryable, id: number, clientId: number): Promise<boolean> {
  const pending = await tx.rows(
    PendingRow,
    "SELECT 1 FROM bulk_action_targets WHERE bulk_action_id = $1 AND client_id = $2 AND status = 'pending' FOR UPDATE",
    [id, clientId],
  );
  return pending.length > 0;
}

export async function overrideAction(db: Queryable, id: number): Promise<z.infer<typeof ActionRow> | undefined> {
  const [action] = await db.rows(ActionRow, "SELECT id, status, total, created_at, finished_at FROM bulk_actions WHERE id = $1 AND kind = 'override'", [id]);
  return action;
}

export const targetCounts = (db: Queryable, id: number) =>
  db.rows(StatusCountRow, 'SELECT status, count(*)::int AS n FROM bulk_action_targets WHERE bulk_action_id = $1 GROUP BY status', [id]);

/** The first failed targets, by client id. */
export const targetErrors = (db: Queryable, id: number) =>
  db.rows(ErrorRow, "SELECT client_id, error FROM bulk_action_targets WHERE bulk_action_id = $1 AND status = 'failed' ORDER BY client_id LIMIT 10", [id]);

/** A running action's grant and who started it. */
export async function runningAction(db: Queryable, id: number): Promise<z.infer<typeof RunningRow> | undefined> {
  const [action] = await db.rows(RunningRow, "SELECT params, staff_user_id, staff_email, ip FROM bulk_actions WHERE id = $1 AND status = 'running'", [id]);
  return action;
}
