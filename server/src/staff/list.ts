import type { StaffAccount, StaffFilter } from '@contract/staff';
import { STAFF_SORT_FIELDS } from '@contract/staff';

type SortField = (typeof STAFF_SORT_FIELDS)[number];

/**
 * The staff screen's page, filtered and sorted in memory: a studio has tens of staff, not
 * thousands. Empty values (never signed in) sort last either way; ties go by id.
 */
export function pageStaff(
  accounts: StaffAccount[],
  query: { sort: [SortField, 'ASC' | 'DESC']; range: [number, number]; filter: StaffFilter },
): { rows: StaffAccount[]; total: number } {
  const { filter } = query;
  const q = filter.q?.trim().toLowerCase();
  const matching = accounts.filter(
    (account) =>
      (!q || account.email.toLowerCase().includes(q) || account.nickname.toLowerCase().includes(q)) &&
      (!filter.role || account.role === filter.role) &&
      (!filter.status || account.status === filter.status) &&
      (!filter.id || filter.id.includes(account.id)),
  );
  const [field, order] = query.sort;
  const direction = order === 'ASC' ? 1 : -1;
  const sorted = [...matching].sort((a, b) => {
    const x = a[field];
    const y = b[field];
    if (x === y) return a.id - b.id;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * direction;
  });
  const [start, end] = query.range;
  return { rows: sorted.slice(start, end + 1), total: matching.length };
}
