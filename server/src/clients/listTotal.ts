import { EXACT_TOTAL_CAP } from '@contract/clientRules';
import type { Database } from '../db/client';
import { cappedCount, plannerEstimate, type Selection } from './listQueries';

/**
 * From which planner estimate on a total is not counted: counting even 10,000 rows costs tens of
 * milliseconds on PGlite. A plain list's estimate comes from the table's statistics and is close;
 * a quick filter's (trigram selectivity) can be off several times, so it is counted far longer.
 */
export const trustedEstimateFrom = (selection: Pick<Selection, 'filter'>) => (selection.filter.q ? 5 * EXACT_TOTAL_CAP : EXACT_TOTAL_CAP);

/**
 * The total of a list without counting a million rows. A page that has no next page tells the
 * exact total by itself. Otherwise the planner's estimate decides: a large list keeps the
 * estimate (flagged), a smaller one is counted, but never beyond EXACT_TOTAL_CAP + 1 rows.
 * Exported with `database` injectable so the decision can be tested without a million rows;
 * `known` is an estimate the caller already has.
 */
export async function listTotal(
  database: Database,
  selection: Selection,
  page: { offset: number; rows: number; hasNext: boolean },
  known?: number,
): Promise<{ total: number; estimate: boolean }> {
  const seen = page.offset + page.rows + (page.hasNext ? 1 : 0);
  if (!page.hasNext && (page.rows > 0 || page.offset === 0)) return { total: seen, estimate: false };
  const estimate = known ?? (await plannerEstimate(database, selection));
  if (estimate >= trustedEstimateFrom(selection)) return { total: Math.max(estimate, seen), estimate: true };
  const exact = await cappedCount(database, selection);
  if (exact <= EXACT_TOTAL_CAP) return { total: exact, estimate: false };
  return { total: Math.max(EXACT_TOTAL_CAP + 1, estimate, seen), estimate: true };
}
