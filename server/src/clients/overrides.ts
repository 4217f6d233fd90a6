import type { Client } from '@contract/clients';
import type { RunningOverride } from '@contract/overrides';
import { recordAudit, type Actor } from '../audit/record';
import type { Database, Queryable } from '../db/client';
import { HttpError } from '../lib/errors';
import { purchaseLevelOf } from '../revenuecat/process';
import { levelAfterOverride } from './accessOverride';
import { clientRowOf, freeLevel, lockOverrideState, restoreLevel, runningOverrideRows } from './overrideQueries';
import { endingWithinBound } from './overrideRules';
import { isoOrNull, toClient } from './rows';

/** Overrides staff manage: the running ones, and ending one now. */

const refuse = (status: number, path: string, message: string) => new HttpError(status, message, [{ path, message }]);

export interface OverrideListQuery {
  now: Date;
  endingWithinDays?: number;
  clientId?: number;
  sort: ['ends_at' | 'starts_at', 'ASC' | 'DESC'];
  range: [number, number];
}

/** Running overrides (ending after now), soonest end first unless sorted otherwise; the total too. */
export async function listRunningOverrides(database: Queryable, query: OverrideListQuery): Promise<{ rows: RunningOverride[]; total: number }> {
  const { rows, total } = await runningOverrideRows(database, {
    now: query.now,
    endsBy: query.endingWithinDays === undefined ? undefined : endingWithinBound(query.now, query.endingWithinDays),
    clientId: query.clientId,
    sort: query.sort,
    range: query.range,
  });
  return {
    rows: rows.map((row) => ({ ...row, starts_at: isoOrNull(row.starts_at), ends_at: isoOrNull(row.ends_at)! })),
    total,
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
    const client = await lockOverrideState(tx, clientId);
    if (!client) throw refuse(404, 'id', `No client with id ${clientId}`);
    if (client.admin_updated_expiration === null) throw refuse(409, 'id', `Client ${clientId} has no access level override running`);
    const now = actor.at;
    const purchaseLevel = await purchaseLevelOf(tx, clientId, now);
    const level = levelAfterOverride(purchaseLevel, client.admin_replaced_access_level, await freeLevel(tx));
    const endedAt = client.admin_updated_expiration.toISOString();
    await restoreLevel(tx, { clientId, level, purchaseLevel, now, endedAt, endKind: 'ended', endedBy: actor.staff?.email ?? null });
    await recordAudit(tx, {
      ...actor,
      action: 'client.override_end',
      target_type: 'client',
      target_id: clientId,
      client_id: clientId,
      before: { vod_access_level: client.vod_access_level, admin_updated_expiration: endedAt },
      after: { vod_access_level: level, admin_updated_expiration: null, ended: 'by_staff' },
    });
    return toClient((await clientRowOf(tx, clientId))!);
  });
}
