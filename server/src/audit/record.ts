import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '@contract/audit';
import type { Queryable } from '../db/client';
import { insertAuditEntries, insertAuditEntry, type AuditValues } from './queries';

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
 * The one way to write an audit entry. Call it with the SAME transaction as the change, so the
 * change and its entry are stored together or not at all:
 *
 *   await app.database.transaction(async (tx) => {
 *     const before = await loadGrant(tx, id);
 *     const after = await saveGrant(tx, id, body);
 *     await recordAudit(tx, { ...actor, action: 'client.override_grant', target_type: 'client',
 *       target_id: clientId, client_id: clientId, ...changedFields(before, after) });
 *   });
 *
 * An action that changes nothing in the database itself (a sign-in that failed, a sync started on
 * the job queue) passes `app.database`. `tests/server/one-way.test.ts` keeps other writes to
 * audit_log out of the code: its statements live in this area's data module, `queries.ts`.
 */
export async function recordAudit(tx: Queryable, entry: AuditEntryInput): Promise<void> {
  await insertAuditEntry(tx, stored(entry));
}

/** Many entries in one statement (a batch of a bulk push): the same rule as recordAudit, same transaction as the change. */
export async function recordAuditMany(tx: Queryable, entries: AuditEntryInput[]): Promise<void> {
  if (entries.length === 0) return;
  await insertAuditEntries(tx, entries.map(stored));
}

function stored(entry: AuditEntryInput): AuditValues {
  const staff = entry.staff;
  return {
    at: entry.at?.toISOString() ?? null,
    staff_user_id: typeof staff === 'object' && staff ? staff.id : null,
    staff_email: typeof staff === 'string' ? staff.toLowerCase().slice(0, 320) : (staff?.email ?? null),
    action: entry.action,
    target_type: entry.target_type,
    target_id: entry.target_id == null ? null : String(entry.target_id),
    client_id: entry.client_id ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: entry.ip ?? null,
  };
}

/** Who acted, from where and when: what an area function takes from a route to record the action. */
export interface Actor {
  staff: { id: number; email: string } | null;
  ip: string | null;
  at: Date;
}

/** The request's actor, for `recordAudit` and the area functions routes call: `{ ...auditActor(request), action, … }`. */
export function auditActor(request: FastifyRequest): Actor {
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
