import { hourOf, type ClientLook } from '@contract/clientData';
import type { Queryable } from '../db/client';
import { insertLooks, lookRows } from './queries';

export type LookKind = 'page' | 'export' | 'list_export';

/**
 * Records that a staff member looked at these clients' data: one row per staff member, client and
 * hour (the key), so opening a page a hundred times writes once. Unknown ids are skipped.
 */
export async function recordLooks(db: Queryable, staff: { id: number; email: string }, clientIds: number[], kind: LookKind, at: Date) {
  if (clientIds.length === 0) return;
  await insertLooks(db, { staffId: staff.id, staffEmail: staff.email, clientIds: [...new Set(clientIds)], hour: hourOf(at), kind, at });
}

export async function looksOf(db: Queryable, clientId: number): Promise<ClientLook[]> {
  const rows = await lookRows(db, clientId);
  return rows.map((row) => ({ staff_email: row.staff_email, hour: row.hour.toISOString(), first_at: row.first_at.toISOString(), kind: row.kind }));
}
