import { TIMELINE_CURSOR } from '@contract/timeline';

/** Pure rules of the client's timeline: its cursor and how a page continues. */

/** Where a page ends: an entry's exact time (microseconds, as PostgreSQL keeps it), its source and row id. */
export interface TimelineCursor {
  at: string;
  src: number | null;
  id: number | null;
}

export function parseTimelineCursor(text: string): TimelineCursor | null {
  if (!TIMELINE_CURSOR.test(text)) return null;
  const [at, src, id] = text.split('~');
  if (Number.isNaN(Date.parse(at!))) return null;
  return { at: at!, src: src === undefined ? null : Number(src), id: id === undefined ? null : Number(id) };
}

export const formatTimelineCursor = (cursor: { at: string; src: number; id: number }) => `${cursor.at}~${cursor.src}~${cursor.id}`;

/**
 * The page is ordered by (at, src, id), all descending. For one source `src`, the SQL condition
 * keeping only the entries after the cursor, with `$at` and `$id` placeholders: an earlier source
 * keeps its entries at the cursor's time, a later one only older ones, the same one compares ids.
 */
export function afterCursorCondition(src: number, cursor: TimelineCursor | null, at: string, id: string, params: { at: string; id: string }): string {
  if (cursor === null) return 'TRUE';
  if (cursor.src === null || cursor.id === null) return `${at} < ${params.at}`;
  if (src < cursor.src) return `${at} <= ${params.at}`;
  if (src > cursor.src) return `${at} < ${params.at}`;
  return `(${at}, ${id}) < (${params.at}, ${params.id})`;
}

/** RevenueCat's event types as the timeline names them; a refund is a cancellation by customer support. */
export function revenueCatEvent(type: string, cancelReason: string | null): string {
  switch (type) {
    case 'RENEWAL':
    case 'UNCANCELLATION':
      return 'purchase.renewal';
    case 'CANCELLATION':
      return cancelReason === 'CUSTOMER_SUPPORT' ? 'purchase.refund' : 'purchase.cancellation';
    case 'EXPIRATION':
      return 'purchase.expiration';
    case 'BILLING_ISSUE':
      return 'purchase.billing_issue';
    case 'PRODUCT_CHANGE':
      return 'purchase.product_change';
    default:
      return 'purchase.other';
  }
}
