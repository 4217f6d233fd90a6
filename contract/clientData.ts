import { z } from 'zod';
import { Id } from './ids';
import { safeText } from './text';
import { RETENTION_KINDS, RETENTION_MAX_DAYS, RETENTION_MIN_DAYS } from './clientDataRules';

/** A client's data rights: export, erasure, requests, retention, who looked (rules: clientDataRules.ts). */
export * from './clientDataRules';

export const ExportQuery = z.object({
  format: z.enum(['json', 'zip'], { message: "format must be 'json' or 'zip'" }).default('json').describe('json: one file; zip: one CSV per section'),
});

export const ERASE_REASON_MAX = 1000;

export const EraseBody = z.object({
  reason: safeText()
    .transform((text) => text.trim())
    .pipe(z.string().min(3, 'give a reason (at least 3 characters)').max(ERASE_REASON_MAX, `the reason must be at most ${ERASE_REASON_MAX} characters`)),
  confirm_email: safeText().max(320, 'the e-mail must be at most 320 characters').describe("The client's e-mail typed again"),
});
export type EraseBody = z.infer<typeof EraseBody>;

export const OutsideTask = z.object({
  service: z.enum(['algolia', 'revenuecat']),
  state: z.enum(['pending', 'done', 'failed']),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  done_at: z.iso.datetime().nullable(),
});

export const Erasure = z.object({
  client_id: z.number().int(),
  label: z.string().describe("'erased client #N'"),
  reason: z.string(),
  staff_email: z.string().nullable(),
  erased_at: z.iso.datetime(),
  outside: z.array(OutsideTask).describe('The outside services told (or still to be told) to forget the client'),
});
export type Erasure = z.infer<typeof Erasure>;

export const ErasureStatus = z.object({ erasure: Erasure.nullable() });
export type ErasureStatus = z.infer<typeof ErasureStatus>;

export const DataRequest = z.object({
  id: z.number().int(),
  kind: z.enum(['access', 'erasure']),
  client_id: z.number().int(),
  client_label: z.string().describe("The client's name, or 'erased client #N'"),
  received_at: z.iso.datetime(),
  due_at: z.iso.datetime().describe('One month after arrival'),
  note: z.string().nullable(),
  logged_by: z.string().nullable(),
  handled_at: z.iso.datetime().nullable(),
  handled_by: z.string().nullable(),
  standing: z.enum(['handled', 'open', 'due_soon', 'overdue']),
});
export type DataRequest = z.infer<typeof DataRequest>;

export const DataRequestsQuery = z.object({
  open: z.enum(['true', 'false']).optional().describe('true: only requests not handled yet'),
});

export const NewDataRequest = z.object({
  kind: z.enum(['access', 'erasure'], { message: "kind must be 'access' or 'erasure'" }),
  client_id: Id,
  received_at: z.iso.datetime({ offset: true, message: 'received_at must be an ISO date-time' }).optional().describe('Defaults to now'),
  note: safeText().max(1000, 'the note must be at most 1000 characters').optional(),
});
export type NewDataRequest = z.infer<typeof NewDataRequest>;

const RetentionDays = z
  .number({ message: 'must be a number of days' })
  .int('must be a whole number of days')
  .min(RETENTION_MIN_DAYS, `must be at least ${RETENTION_MIN_DAYS} day`)
  .max(RETENTION_MAX_DAYS, `must be at most ${RETENTION_MAX_DAYS} days`);

export const RetentionSettings = z.object(
  Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, RetentionDays])) as Record<(typeof RETENTION_KINDS)[number], typeof RetentionDays>,
);
export type RetentionSettings = z.infer<typeof RetentionSettings>;

export const ClientLook = z.object({
  staff_email: z.string(),
  hour: z.iso.datetime(),
  first_at: z.iso.datetime(),
  kind: z.enum(['page', 'export', 'list_export']),
});
export type ClientLook = z.infer<typeof ClientLook>;

export const ClientLooksResponse = z.object({ looks: z.array(ClientLook).describe('Newest first, at most 200') });

export const ListLooksBody = z.object({
  client_ids: z.array(Id).min(1, 'name at least one client').max(100_000, 'at most 100,000 clients at once'),
});
