import { z } from 'zod';
import { Id } from './ids';

/**
 * What staff did about a client at risk (docs/features.md#at-risk): a call, a text, a message left
 * (contacts), or a snooze that takes the client off the at-risk list for some days. Both are on the
 * client's timeline.
 */
export const CONTACT_KINDS = ['called', 'texted', 'left_message'] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];
export const CONTACT_NOTE_MAX = 500;
export const SNOOZE_DAYS_MAX = 90;
/** What the console offers first; any whole number of days from 1 to SNOOZE_DAYS_MAX is accepted. */
export const SNOOZE_DAY_CHOICES = [3, 7, 14, 30] as const;

const Note = z
  .string()
  .trim()
  .max(CONTACT_NOTE_MAX, `note must be at most ${CONTACT_NOTE_MAX} characters`)
  .optional()
  .describe('What was said or agreed (optional)');

export const ContactBody = z
  .object({
    kind: z.enum(CONTACT_KINDS, { error: `kind must be one of ${CONTACT_KINDS.join(', ')}` }),
    note: Note,
  })
  .strict();
export type ContactBody = z.infer<typeof ContactBody>;

export const SnoozeBody = z
  .object({
    days: z
      .number({ error: `days must be a whole number from 1 to ${SNOOZE_DAYS_MAX}` })
      .int(`days must be a whole number from 1 to ${SNOOZE_DAYS_MAX}`)
      .min(1, `days must be a whole number from 1 to ${SNOOZE_DAYS_MAX}`)
      .max(SNOOZE_DAYS_MAX, `days must be a whole number from 1 to ${SNOOZE_DAYS_MAX}`),
    note: Note,
  })
  .strict();
export type SnoozeBody = z.infer<typeof SnoozeBody>;

export const ContactEntry = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  kind: z.enum([...CONTACT_KINDS, 'snoozed']),
  note: z.string().nullable(),
  snoozed_until: z.iso.datetime().nullable().describe("kind 'snoozed': off the at-risk list until then"),
  staff_email: z.string(),
  created_at: z.iso.datetime(),
});
export type ContactEntry = z.infer<typeof ContactEntry>;

export const ContactParams = z.object({ id: Id });
