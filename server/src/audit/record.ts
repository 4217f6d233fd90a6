import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '../../../contract/audit';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';

/** `app.db` or the `tx` of `app.db.transaction(async (tx) => …)`: both can write the entry. */
export type Executor = Pick<Db, 'insert'>;

export interface AuditEntryInput {
  /** Who acted: the request's staff member; null for the system. A bare e-mail for failed sign-ins. */
  staff: { id: number; email: string } | string | null;
  action: AuditAction;
  target_type: string;
  target_id?: string | number | null;
  /** The client the action concerned, so it shows in that client's History. */
  client_id?: number | null;
  /** Changed fields before and after (see `changedFields`); null before = created, null after = removed. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  ip?: string | null;
  /** Defaults to the database's now(); routes pass `app.clock.now()` (see `auditActor`). */
  at?: Date;
}

/**
 * Records a staff action. Call it with the SAME transaction as the change, so the change and its
 * entry are stored together or not at all:
 *
 *   await app.db.transaction(async (tx) => {
 *     const before = await loadGrant(tx, id);
 *     const after = await saveGrant(tx, id, body);
 *     await recordAudit(tx, { ...auditActor(request), action: 'client.override_grant', target_type: 'client',
 *       target_id: clientId, client_id: clientId, ...changedFields(before, after) });
 *   });
 *
 * Inside the transaction use only `tx` (not `app.db` nor `app.database.query`): PGlite has one
 * connection, so a query outside the transaction waits for it to end.
 */
export async function recordAudit(tx: Executor, entry: AuditEntryInput): Promise<void> {
  const staff = entry.staff;
  await tx.insert(auditLog).values({
    ...(entry.at ? { at: entry.at } : {}),
    staff_user_id: typeof staff === 'object' && staff ? staff.id : null,
    staff_email: typeof staff === 'string' ? staff.toLowerCase().slice(0, 320) : (staff?.email ?? null),
    action: entry.action,
    target_type: entry.target_type,
    target_id: entry.target_id == null ? null : String(entry.target_id),
    client_id: entry.client_id ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: entry.ip ?? null,
  });
}

/** Who, from where and when, for `recordAudit` in a route handler: `{ ...auditActor(request), action, … }`. */
export function auditActor(request: FastifyRequest): Pick<AuditEntryInput, 'staff' | 'ip' | 'at'> {
  const staff = request.staff;
  return { staff: staff ? { id: staff.id, email: staff.email } : null, ip: request.ip, at: request.server.clock.now() };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Only the fields that changed, before and after. A missing `before` (created) or `after`
 * (removed) keeps the other side whole. Dates become ISO strings so the entry reads the same
 * whichever database stored it.
 */
export function changedFields(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
  ignore: readonly string[] = ['updated_at'],
): { before: Record<string, unknown> | null; after: Record<string, unknown> | null } {
  const plain = (record: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(record)
        .filter(([key]) => !ignore.includes(key))
        .map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
    );
  if (!before) return { before: null, after: after ? plain(after) : null };
  if (!after) return { before: plain(before), after: null };
  const a = plain(before);
  const b = plain(after);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => !same(a[key], b[key]));
  return {
    before: Object.fromEntries(keys.map((key) => [key, a[key] ?? null])),
    after: Object.fromEntries(keys.map((key) => [key, b[key] ?? null])),
  };
}
