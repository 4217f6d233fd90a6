import type { Client } from '@contract/clients';
import type { RunningOverride } from '@contract/overrides';
import { recordAudit, type Actor } from '../audit/record';
import type { Database, Queryable } from '../db/client';
import { HttpError } from '../lib/errors';
import { purchaseLevelOf } from '../revenuecat/process';
import { levelAfterOverride, restoreLevel } from './accessOverride';
import { CLIENT_COLUMNS } from './listQuery';
import { endingWithinBound } from './overrideRules';
import { isoOrNull, toClient, type ClientRow } from './rows';

/** Overrides staff manage: the running ones, and ending one now. */

const refuse = (status: number, path: string, message: string) => new HttpError(status, message, [{ path, message }]);

export interface OverrideListQuery {
  now: Date;
  endingWithinDays?: number;
  clientId?: number;
  sort: ['ends_at' | 'starts_at', 'ASC' | 'DESC'];
  range: [number, number];
}

type OverrideRow = Omit<RunningOverride, 'starts_at' | 'ends_at'> & { starts_at: Date | string | null; ends_at: Date | string };

/** Running overrides (ending after now), soonest end first unless sorted otherwise; the total too. */
export async function listRunningOverrides(database: Queryable, query: OverrideListQuery): Promise<{ rows: RunningOverride[]; total: number }> {
  const params: unknown[] = [query.now.toISOString()];
  const where = ['c.admin_updated_expiration > $1'];
  if (query.endingWithinDays !== undefined) {
    params.push(endingWithinBound(query.now, query.endingWithinDays).toISOString());
    where.push(`c.admin_updated_expiration <= $${params.length}`);
  }
  if (query.clientId !== undefined) {
    params.push(query.clientId);
    where.push(`c.id = $${params.length}`);
  }
  const [field, order] = query.sort;
  const orderBy = field === 'starts_at' ? `h.starts_at ${order} NULLS LAST, c.id ${order}` : `c.admin_updated_expiration ${order}, c.id ${order}`;
  const [start, end] = query.range;
  const rows = await database.query<OverrideRow>(
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
  const [count] = await database.query<{ total: number }>(`SELECT count(*)::int AS total FROM clients c WHERE ${where.join(' AND ')}`, params);
  return {
    rows: rows.map((row) => ({ ...row, id: Number(row.id), starts_at: isoOrNull(row.starts_at), ends_at: isoOrNull(row.ends_at)! })),
    total: Number(count!.total),
  };
}

/**
 * Ends the client's override now (DELETE /api/admin/v1/clients/{id}/override): back on the level
 * their purchases give, else the level the override replaced, else free; the history row closed as
 * 'ended' by this staff member, and the audit entry, in one transaction. 404: no such client;
 * 409: no override is running.
 */
export async function endOverrideNow(database: Database, clientId: number, actor: Actor): Promise<Client> {
  return database.transaction(async (tx) => {
    const [client] = await tx.query<{
      vod_access_level: number | null;
      admin_updated_expiration: Date | string | null;
      admin_replaced_access_level: number | null;
    }>('SELECT vod_access_level, admin_updated_expiration, admin_replaced_access_level FROM clients WHERE id = $1 FOR UPDATE', [clientId]);
    if (!client) throw refuse(404, 'id', `No client with id ${clientId}`);
    if (client.admin_updated_expiration === null) throw refuse(409, 'id', `Client ${clientId} has no access level override running`);
    const now = actor.at;
    const purchaseLevel = await purchaseLevelOf(tx, clientId, now);
    const [free] = await tx.query<{ level: number }>('SELECT min(sort_order) AS level FROM access_levels');
    const level = levelAfterOverride(purchaseLevel, client.admin_replaced_access_level, Number(free!.level));
    const endedAt = new Date(client.admin_updated_expiration).toISOString();
    await restoreLevel(tx, { clientId, level, purchaseLevel, now, endedAt, endKind: 'ended', endedBy: actor.staff?.email ?? null });
    await recordAudit(tx, {
      ...actor,
      action: 'client.override_end',
      target_type: 'client',
      target_id: clientId,
      client_id: clientId,
      before: { vod_access_level: client.vod_access_level === null ? null : Number(client.vod_access_level), admin_updated_expiration: endedAt },
      after: { vod_access_level: level, admin_updated_expiration: null, ended: 'by_staff' },
    });
    const [row] = await tx.query<ClientRow>(`SELECT ${CLIENT_COLUMNS} FROM clients c WHERE c.id = $1`, [clientId]);
    return toClient(row!);
  });
}
