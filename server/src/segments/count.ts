import type { ClientFilter } from '@contract/clientFilter';
import type { Database } from '../db/client';
import { listTotal } from '../clients/listTotal';
import { firstClients } from '../clients/lists';
import { PREVIEW_SAMPLE, type SegmentPreview } from '@contract/segments';

/**
 * How many clients a filter selects, by the client lists' rule (clients/listTotal.ts): counted up to
 * 10,000 (a quick search further), the planner's estimate above that, flagged. Never a count of a million rows.
 */
export async function countClients(database: Database, filter: ClientFilter, now: Date): Promise<{ count: number; estimate: boolean }> {
  // As a page with rows after it: listTotal then estimates or counts instead of trusting the page.
  const { total, estimate } = await listTotal(database, { listId: 1, filter, now }, { offset: 0, rows: 0, hasNext: true });
  return { count: total, estimate };
}

/** A filter's preview: how many clients it selects now, and the first few of them by id. */
export async function previewSegment(database: Database, filter: ClientFilter, now: Date): Promise<SegmentPreview> {
  const first = await firstClients(database, filter, PREVIEW_SAMPLE, now);
  return { count: first.total, count_is_estimate: first.total_is_estimate, sample: first.clients };
}
