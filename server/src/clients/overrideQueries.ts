import { z } from 'zod';
import { timestamp } from '../db/rows';
import { RunningOverride } from '@contract/overrides';
import type { Queryable } from '../db/client';
import { CLIENT_COLUMNS, ClientRow, Moment } from './listQueries';

/** Admin access-level overrides: granting, ending (by the sweep or by staff), and the running ones. */

/**
 * Grants `level` until `until` in one statement (so one transaction), recording the grant in
 * access_override_history and closing the client's previous one there; accessOverride.ts says why.
 * Undefined when there is no such client.
 */
export async function grantOverrideRow(
  database: Queryable,
  grant: { clientId: number; level: number; until: Date; now: Date; grantedBy: string | null; reason: string | null },
): Promise<ClientRow | undefined> {
  const rows = await database.rows(
    ClientRow,
    `WITH locked AS (
       SELECT id, vod_access_level FROM clients WHERE id = $1 FOR UPDATE
     ), updated AS (
       UPDATE clients c SET
         admin_replaced_access_level = CASE WHEN c.admin_updated_expiration IS NOT NULL THEN c.admin_replaced_access_level ELSE c.vod_access_level END,
         vod_access_level = $2, admin_updated_expiration = $3, updated_at = $4
       FROM locked WHERE c.id = locked.id
       RETURNING c.*, locked.vod_access_level AS previous_level
     ), closed AS (
       UPDATE access_override_history h SET ended_at = $4, end_kind = 'replaced'
       FROM updated u WHERE h.client_id = u.id AND h.ended_at IS NULL
     ), recorded AS (
       INSERT INTO access_override_history (client_id, level, replaced_level, starts_at, ends_at, granted_by, reason)
       SELECT id, $2, previous_level, $4, $3, $5, $6 FROM updated
     )
     SELECT ${CLIENT_COLUMNS} FROM updated c`,
    [grant.clientId, grant.level, grant.until.toISOString(), grant.now.toISOString(), grant.grantedBy, grant.reason],
  );
  return rows[0];
}

const Id = z.object({ id: z.number() });

/**
 * Puts a client back on `level` and closes their open history row, in one statement, only while the
 * override still ends at `endedAt` (a compare-and-set: a newer grant or another instance's sweep in
 * between makes it match nothing). Answers how many clients changed (0 or 1).
 */
export async function restoreLevel(
  tx: Queryable,
  end: { clientId: number; level: number; purchaseLevel: number | null; now: Date; endedAt: string; endKind: 'expired' | 'ended'; endedBy: string | null },
): Promise<number> {
  const rows = await tx.rows(
    Id,
    `WITH restored AS (
       UPDATE clients SET vod_access_level = $2, purchase_access_level = $3, admin_updated_expiration = NULL,
              admin_replaced_access_level = NULL, updated_at = $4
       WHERE id = $1 AND admin_updated_expiration = $5 RETURNING id
     ), closed AS (
       UPDATE access_override_history h SET ended_at = $4, end_kind = $6, ended_by = $7
       FROM restored r WHERE h.client_id = r.id AND h.ended_at IS NULL
     )
     SELECT id FROM restored`,
    [end.clientId, end.level, end.purchaseLevel, end.now.toISOString(), end.endedAt, end.endKind, end.endedBy],
  );
  return rows.length;
}

const DueOverride = z.object({
  id: z.number(),
  vod_access_level: z.number().nullable(),
  admin_updated_expiration: timestamp,
  admin_replaced_access_level: z.number().nullable(),
});

/** Overrides whose end has passed, the oldest end first, at most `batch`. */
export const dueOverrides = (database: Queryable, now: Date, batch: number) =>
  database.rows(
    DueOverride,
    `SELECT id, vod_access_level, admin_updated_expiration, admin_replaced_access_level FROM clients
     WHERE admin_updated_expiration <= $1 ORDER BY admin_updated_expiration LIMIT ${batch}`,
    [now.toISOString()],
  );

const Level = z.object({ level: z.number() });

/** The free level: the lowest sort_order. */
export async function freeLevel(database: Queryable): Promise<number> {
  const [free] = await database.rows(Level, 'SELECT min(sort_order) AS level FROM access_levels');
  return free!.level;
}

const GrantState = z.object({ vod_access_level: z.number().nullable(), admin_updated_expiration: timestamp.nullable() });

/** The client's level and override end, locked for a grant; undefined for no such client. */
export async function lockGrantState(tx: Queryable, clientId: number): Promise<z.infer<typeof GrantState> | undefined> {
  const [row] = await tx.rows(GrantState, 'SELECT vod_access_level, admin_updated_expiration FROM clients WHERE id = $1 FOR UPDATE', [clientId]);
  return row;
}

const OverrideState = GrantState.extend({ admin_replaced_access_level: z.number().nullable() });

/** The client's level, override end and the level it replaced, locked for ending it; undefined for no such client. */
export async function lockOverrideState(tx: Queryable, clientId: number): Promise<z.infer<typeof OverrideState> | undefined> {
  const [row] = await tx.rows(
    OverrideState,
    'SELECT vod_access_level, admin_updated_expiration, admin_replaced_access_level FROM clients WHERE id = $1 FOR UPDATE',
    [clientId],
  );
  return row;
}

export async function clientRowOf(tx: Queryable, clientId: number): Promise<ClientRow | undefined> {
  const [row] = await tx.rows(ClientRow, `SELECT ${CLIENT_COLUMNS} FROM clients c WHERE c.id = $1`, [clientId]);
  return row;
}

const OverrideRow = RunningOverride.extend({ starts_at: Moment.nullable(), ends_at: Moment });
const Total = z.object({ total: z.number() });

/** Running overrides (ending after now) matching the filters, sorted and ranged; the total too. */
export async function runningOverrideRows(
  database: Queryable,
  query: { now: Date; endsBy?: Date; clientId?: number; sort: ['ends_at' | 'starts_at', 'ASC' | 'DESC']; range: [number, number] },
): Promise<{ rows: z.infer<typeof OverrideRow>[]; total: number }> {
  const params: unknown[] = [query.now.toISOString()];
  const where = ['c.admin_updated_expiration > $1'];
  if (query.endsBy !== undefined) {
    params.push(query.endsBy.toISOString());
    where.push(`c.admin_updated_expiration <= $${params.length}`);
  }
  if (query.clientId !== undefined) {
    params.push(query.clientId);
    where.push(`c.id = $${params.length}`);
  }
  const [field, order] = query.sort;
  const orderBy = field === 'starts_at' ? `h.starts_at ${order} NULLS LAST, c.id ${order}` : `c.admin_updated_expiration ${order}, c.id ${order}`;
  const [start, end] = query.range;
  const rows = await database.rows(
    OverrideRow,
    `SELECT c.id, c.first_name, c.last_name, c.email_address, c.vod_access_level AS level, al.name AS level_name,
            h.starts_at, c.admin_updated_expiration AS ends_at, h.granted_by, h.reason
     FROM clients c
     LEFT JOIN access_levels al ON al.sort_order = c.vod_access_level
     LEFT JOIN LATERAL (
       SELECT starts_at, granted_by, reason FROM access_override_history h
       WHERE h.client_id = c.id AND h.ended_at IS NULL ORDER BY h.starts_at DESC, h.id DESC LIMIT 1
     ) h ON true
     WHERE ${where.join(' AND ')}
     ORDER BY ${orderBy}
     LIMIT ${end - start + 1} OFFSET ${start}`,
    params,
  );
  const [count] = await database.rows(Total, `SELECT count(*)::int AS total FROM clients c WHERE ${where.join(' AND ')}`, params);
  return { rows, total: count!.total };
}
