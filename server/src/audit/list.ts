import type { AuditEntry, AuditFilter, AUDIT_SORT_FIELDS } from '@contract/audit';
import { csvLine } from '@contract/csv';
import type { Queryable } from '../db/client';
import { notFound } from '../lib/errors';
import { auditEntry, auditPage, type AuditRow } from './queries';

export type AuditSortField = (typeof AUDIT_SORT_FIELDS)[number];

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** A bare date as `to` means the whole of that day (UTC), so from=to=today lists today. */
export function dateBounds(filter: Pick<AuditFilter, 'from' | 'to'>): { from?: Date; to?: Date } {
  const from = filter.from ? new Date(isDay(filter.from) ? `${filter.from}T00:00:00Z` : filter.from) : undefined;
  const to = filter.to ? new Date(isDay(filter.to) ? new Date(`${filter.to}T00:00:00Z`).getTime() + 86_400_000 - 1 : filter.to) : undefined;
  return { from, to };
}

const toEntry = (row: AuditRow): AuditEntry => ({ ...row, at: row.at.toISOString() });

export async function listAudit(
  database: Queryable,
  params: { sort: [AuditSortField, 'ASC' | 'DESC']; range: [number, number]; filter: AuditFilter },
): Promise<{ rows: AuditEntry[]; total: number }> {
  const { from, to } = dateBounds(params.filter);
  const { rows, total } = await auditPage(database, { sort: params.sort, range: params.range, conditions: { ...params.filter, from, to } });
  return { rows: rows.map(toEntry), total };
}

export async function getAudit(database: Queryable, id: number): Promise<AuditEntry | undefined> {
  const row = await auditEntry(database, id);
  return row && toEntry(row);
}

/** One entry; 404 when there is none. */
export async function requireAuditEntry(database: Queryable, id: number): Promise<AuditEntry> {
  const entry = await getAudit(database, id);
  if (!entry) throw notFound(`No audit entry with id ${id}.`);
  return entry;
}

const CSV_COLUMNS = ['id', 'at', 'staff_email', 'action', 'target_type', 'target_id', 'client_id', 'before', 'after', 'ip'] as const;

/** The filtered log as CSV, newest first, read in pages so a long history never sits in one query. */
export async function exportAuditCsv(database: Queryable, filter: AuditFilter, maxRows: number): Promise<string> {
  const lines = [csvLine(CSV_COLUMNS)];
  const page = 1000;
  for (let start = 0; start < maxRows; start += page) {
    const { rows } = await listAudit(database, { sort: ['at', 'DESC'], range: [start, Math.min(start + page, maxRows) - 1], filter });
    for (const row of rows) lines.push(csvLine(CSV_COLUMNS.map((column) => row[column])));
    if (rows.length < page) break;
  }
  return `${lines.join('\r\n')}\r\n`;
}
