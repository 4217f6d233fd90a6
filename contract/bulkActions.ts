import { z } from 'zod';
import { MAX_PICKED_CLIENTS } from './broadcasts';
import { ClientFilter } from './clientFilter';
import { Id, wholeNumber } from './ids';

/**
 * Bulk actions on a client list or segment (docs/features.md#bulk-actions): on the selected rows or on
 * every client the list's filter selects. Pushes are bulk pushes (contract/broadcasts.ts); overrides are here.
 */

/** Up to this many clients an override is granted within the request; more run as a job with progress. */
export const BULK_INLINE_MAX = 25;

export const BulkOverrideBody = z
  .object({
    client_ids: z.array(Id).min(1).max(MAX_PICKED_CLIENTS).optional().describe('the selected clients'),
    filter: ClientFilter.optional().describe("or every client a list's filter (with the list's own rule) selects"),
    new_vod_access_level: wholeNumber({ min: 0, max: 1000, message: "new_vod_access_level must be the level's sort_order (a whole number)" }),
    adminOverrideDate: z.iso
      .datetime({ offset: true, message: 'adminOverrideDate must be an ISO 8601 date and time, e.g. 2026-11-29T12:00:00.000Z' })
      .describe('When the overrides end: in the future, at most 28 days ahead (the rules of one client)'),
  })
  .strict()
  .refine((body) => (body.client_ids === undefined) !== (body.filter === undefined), { message: 'give either client_ids or filter', path: ['client_ids'] });
export type BulkOverrideBody = z.input<typeof BulkOverrideBody>;

export const BulkAction = z.object({
  id: z.number().int(),
  kind: z.literal('override'),
  status: z.enum(['running', 'done']),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  errors: z.array(z.object({ client_id: z.number().int(), message: z.string() })).describe('the first 10 failures'),
  created_at: z.iso.datetime({ offset: true }),
  finished_at: z.iso.datetime({ offset: true }).nullable(),
});
export type BulkAction = z.infer<typeof BulkAction>;
export const BulkActionParams = z.object({ id: Id });
