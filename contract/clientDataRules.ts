/** Rules of a client's data rights that both halves apply (pure, no I/O). */

/** Requests are answered within one month of arrival (GDPR art. 12(3)); the list warns this many days before. */
export const DUE_SOON_DAYS = 7;

/** The same day of the next month, at the same time (UTC); the 31st of January is due the last day of February. */
export function dueDateOf(receivedAt: Date): Date {
  const due = new Date(receivedAt.getTime());
  const day = due.getUTCDate();
  due.setUTCDate(1);
  due.setUTCMonth(due.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(due.getUTCFullYear(), due.getUTCMonth() + 1, 0)).getUTCDate();
  due.setUTCDate(Math.min(day, lastDay));
  return due;
}

export type RequestStanding = 'handled' | 'open' | 'due_soon' | 'overdue';

/** Where a request stands at `now`: handled, open, due within DUE_SOON_DAYS, or past its due date. */
export function requestStanding(request: { due_at: string | Date; handled_at: string | Date | null }, now: Date): RequestStanding {
  if (request.handled_at) return 'handled';
  const due = new Date(request.due_at).getTime();
  if (due < now.getTime()) return 'overdue';
  return due - now.getTime() <= DUE_SOON_DAYS * 86_400_000 ? 'due_soon' : 'open';
}

/** Whether the e-mail typed again is the client's: case and surrounding spaces do not count. */
export const sameEmail = (typed: string, stored: string | null) => stored !== null && typed.trim().toLowerCase() === stored.trim().toLowerCase();

/** The start of the hour `at` falls in (UTC): who looked is recorded once per staff member, client and hour. */
export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);

/** How a client reads once erased, in the audit log and on the client page. */
export const erasedLabel = (clientId: number) => `erased client #${clientId}`;

/** Retention settings: what is kept, in days; the defaults are docs/operations.md's. */
export const RETENTION_KINDS = ['debug_reports', 'device_reports', 'view_detail', 'finished_jobs', 'audit_entries'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];
export const RETENTION_DEFAULT_DAYS: Record<RetentionKind, number> = {
  debug_reports: 90,
  device_reports: 400,
  view_detail: 730,
  finished_jobs: 14,
  audit_entries: 2190,
};
export const RETENTION_MIN_DAYS = 1;
export const RETENTION_MAX_DAYS = 3650;
