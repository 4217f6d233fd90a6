import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { AuditFilter, AUDIT_SORT_FIELDS } from '@contract/audit';
import type { Queryable } from '../db/client';

/** An audit_log row as stored (the answer's `at` is its ISO text). */
const AuditRow = z.object({
  id: z.number(),
  at: timestamp,
  staff_user_id: z.number().nullable(),
  staff_email: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  client_id: z.number().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type AuditRow = z.infer<typeof AuditRow>;

const TotalRow = z.object({ total: z.number() });

const COLUMNS = 'id, at, staff_user_id, staff_email, action, target_type, target_id, client_id, before, after, ip';
const INSERTED = 'at, staff_user_id, staff_email, action, target_type, target_id, client_id, before, after, ip';

/** One entry's values as audit_log stores them; `at` null for the database's now(). */
export interface AuditValues {
  at: string | null;
  staff_user_id: number | null;
  staff_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  client_id: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
}

export async function insertAuditEntry(tx: Queryable, entry: AuditValues): Promise<void> {
  await tx.execute(
    `INSERT INTO audit_log (${INSERTED})
     VALUES (coalesce($1::timestamptz, now()), $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10)`,
    [
      entry.at,
      entry.staff_user_id,
      entry.staff_email,
      entry.action,
      entry.target_type,
      entry.target_id,
      entry.client_id,
      entry.before == null ? null : JSON.stringify(entry.before),
      entry.after == null ? null : JSON.stringify(entry.after),
      entry.ip,
    ],
  );
}

export async function insertAuditEntries(tx: Queryable, entries: AuditValues[]): Promise<void> {
  await tx.execute(
    `INSERT INTO audit_log (${INSERTED})
     SELECT coalesce(t.at, now()), t.staff_user_id, t.staff_email, t.action, t.target_type, t.target_id, t.client_id, t.before, t.after, t.ip
     FROM jsonb_to_recordset($1::jsonb) AS t(at timestamptz, staff_user_id integer, staff_email text, action text, target_type text, target_id text,
       client_id bigint, before jsonb, after jsonb, ip text)`,
    [JSON.stringify(entries)],
  );
}

/** The list's filter with its date bounds resolved (see `dateBounds`). */
export type AuditConditions = Omit<AuditFilter, 'from' | 'to'> & { from?: Date; to?: Date };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function whereOf(filter: AuditConditions): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const conditions: string[] = [];
  if (filter.id) conditions.push(`id = ANY(${param(filter.id.length ? filter.id : [-1])}::bigint[])`);
  if (filter.staff_email?.trim()) conditions.push(`staff_email = ${param(filter.staff_email.trim().toLowerCase())}`);
  if (filter.action?.trim()) conditions.push(`action = ${param(filter.action.trim())}`);
  if (filter.client_id != null) conditions.push(`client_id = ${param(filter.client_id)}`);
  if (filter.target_type?.trim()) conditions.push(`target_type = ${param(filter.target_type.trim())}`);
  if (filter.target_id?.trim()) conditions.push(`target_id = ${param(filter.target_id.trim())}`);
  if (filter.from) conditions.push(`at >= ${param(filter.from.toISOString())}::timestamptz`);
  if (filter.to) conditions.push(`at <= ${param(filter.to.toISOString())}::timestamptz`);
  if (filter.q?.trim()) {
    const pattern = param(`%${escapeLike(filter.q.trim())}%`);
    conditions.push(`(action ILIKE ${pattern} OR staff_email ILIKE ${pattern} OR target_id ILIKE ${pattern})`);
  }
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

/** One page of the filtered log (`range` inclusive) and the filtered total. */
export async function auditPage(
  database: Queryable,
  params: { sort: [(typeof AUDIT_SORT_FIELDS)[number], 'ASC' | 'DESC']; range: [number, number]; conditions: AuditConditions },
): Promise<{ rows: AuditRow[]; total: number }> {
  const { where, params: values } = whereOf(params.conditions);
  const [field, order] = params.sort;
  const direction = order === 'ASC' ? 'ASC' : 'DESC';
  const column = { at: 'at', id: 'id', action: 'action', staff_email: 'staff_email' }[field];
  // Entries of one instant keep their recording order.
  const orderBy = field === 'id' ? `id ${direction}` : `${column} ${direction} NULLS LAST, id ${direction}`;
  const [start, end] = params.range;
  const [rows, [count]] = await Promise.all([
    database.rows(AuditRow, `SELECT ${COLUMNS} FROM audit_log ${where} ORDER BY ${orderBy} LIMIT $${values.length + 1} OFFSET $${values.length + 2}`, [
      ...values,
      end - start + 1,
      start,
    ]),
    database.rows(TotalRow, `SELECT count(*)::int AS total FROM audit_log ${where}`, values),
  ]);
  return { rows, total: count!.total };
}

export async function auditEntry(database: Queryable, id: number): Promise<AuditRow | undefined> {
  const [row] = await database.rows(AuditRow, `SELECT ${COLUMNS} FROM audit_log WHERE id = $1`, [id]);
  return row;
}
