import { and, asc, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditFilter, AUDIT_SORT_FIELDS } from '@contract/audit';
import { csvLine } from '@contract/csv';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import { notFound } from '../lib/errors';

export type AuditSortField = (typeof AUDIT_SORT_FIELDS)[number];

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** A bare date as `to` means the whole of that day (UTC), so from=to=today lists today. */
export function dateBounds(filter: Pick<AuditFilter, 'from' | 'to'>): { from?: Date; to?: Date } {
  const from = filter.from ? new Date(isDay(filter.from) ? `${filter.from}T00:00:00Z` : filter.from) : undefined;
  const to = filter.to ? new Date(isDay(filter.to) ? new Date(`${filter.to}T00:00:00Z`).getTime() + 86_400_000 - 1 : filter.to) : undefined;
  return { from, to };
}

function whereOf(filter: AuditFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.id) conditions.push(inArray(auditLog.id, filter.id.length ? filter.id : [-1]));
  if (filter.staff_email?.trim()) conditions.push(eq(auditLog.staff_email, filter.staff_email.trim().toLowerCase()));
  if (filter.action?.trim()) conditions.push(eq(auditLog.action, filter.action.trim()));
  if (filter.client_id != null) conditions.push(eq(auditLog.client_id, filter.client_id));
  if (filter.target_type?.trim()) conditions.push(eq(auditLog.target_type, filter.target_type.trim()));
  if (filter.target_id?.trim()) conditions.push(eq(auditLog.target_id, filter.target_id.trim()));
  const { from, to } = dateBounds(filter);
  if (from) conditions.push(gte(auditLog.at, from));
  if (to) conditions.push(lte(auditLog.at, to));
  if (filter.q?.trim()) {
    const pattern = `%${escapeLike(filter.q.trim())}%`;
    conditions.push(or(ilike(auditLog.action, pattern), ilike(auditLog.staff_email, pattern), ilike(auditLog.target_id, pattern)));
  }
  return and(...conditions);
}

type Row = typeof auditLog.$inferSelect;

const toEntry = (row: Row): AuditEntry => ({ ...row, at: new Date(row.at).toISOString() });

export async function listAudit(
  db: Db,
  params: { sort: [AuditSortField, 'ASC' | 'DESC']; range: [number, number]; filter: AuditFilter },
): Promise<{ rows: AuditEntry[]; total: number }> {
  const where = whereOf(params.filter);
  const [field, order] = params.sort;
  const direction = order === 'ASC' ? asc : desc;
  // Entries of one instant keep their recording order.
  const orderBy = field === 'id' ? [direction(auditLog.id)] : [sql`${direction(auditLog[field])} NULLS LAST`, direction(auditLog.id)];
  const [start, end] = params.range;
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(...orderBy)
      .limit(end - start + 1)
      .offset(start),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where),
  ]);
  return { rows: rows.map(toEntry), total: Number(count!.total) };
}

export async function getAudit(db: Db, id: number): Promise<AuditEntry | undefined> {
  const [row] = await db.select().from(auditLog).where(eq(auditLog.id, id));
  return row && toEntry(row);
}

/** One entry; 404 when there is none. */
export async function requireAuditEntry(db: Db, id: number): Promise<AuditEntry> {
  const entry = await getAudit(db, id);
  if (!entry) throw notFound(`No audit entry with id ${id}.`);
  return entry;
}

const CSV_COLUMNS = ['id', 'at', 'staff_email', 'action', 'target_type', 'target_id', 'client_id', 'before', 'after', 'ip'] as const;

/** The filtered log as CSV, newest first, read in pages so a long history never sits in one query. */
export async function exportAuditCsv(db: Db, filter: AuditFilter, maxRows: number): Promise<string> {
  const lines = [csvLine(CSV_COLUMNS)];
  const page = 1000;
  for (let start = 0; start < maxRows; start += page) {
    const { rows } = await listAudit(db, { sort: ['at', 'DESC'], range: [start, Math.min(start + page, maxRows) - 1], filter });
    for (const row of rows) lines.push(csvLine(CSV_COLUMNS.map((column) => row[column])));
    if (rows.length < page) break;
  }
  return `${lines.join('\r\n')}\r\n`;
}
