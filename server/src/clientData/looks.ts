import { hourOf, type ClientLook } from '@contract/clientData';
import type { Queryable } from '../db/client';

export type LookKind = 'page' | 'export' | 'list_export';

/**
 * Records that a staff member looked at these clients' data: one row per staff member, client and
 * hour (the key), so opening a page a hundred times writes once. Unknown ids are skipped.
 */
export async function recordLooks(db: Queryable, staff: { id: number; email: string }, clientIds: number[], kind: LookKind, at: Date) {
  if (clientIds.length === 0) return;
  await db.query(
    `INSERT INTO client_looks (staff_user_id, client_id, hour, staff_email, kind, first_at)
     SELECT $1, c.id, $3, $4, $5, $6 FROM clients c WHERE c.id = ANY($2::bigint[])
     ON CONFLICT (staff_user_id, client_id, hour) DO NOTHING`,
    [staff.id, [...new Set(clientIds)], hourOf(at).toISOString(), staff.email, kind, at.toISOString()],
  );
}

export async function looksOf(db: Queryable, clientId: number): Promise<ClientLook[]> {
  const rows = await db.query<{ staff_email: string; hour: Date | string; first_at: Date | string; kind: LookKind }>(
    'SELECT staff_email, hour, first_at, kind FROM client_looks WHERE client_id = $1 ORDER BY hour DESC, first_at DESC LIMIT 200',
    [clientId],
  );
  return rows.map((row) => ({
    staff_email: row.staff_email,
    hour: new Date(row.hour).toISOString(),
    first_at: new Date(row.first_at).toISOString(),
    kind: row.kind,
  }));
}
