import { z } from 'zod';
import { wholeNumber } from './ids';

/** What the client's timeline holds, one kind per filter chip. */
export const TIMELINE_KINDS = ['visit', 'stream', 'purchase', 'override', 'push', 'contract_sync', 'note', 'contact'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** What exactly happened; the console names each in its messages file (timeline.events.<event>). */
export const TIMELINE_EVENTS = [
  'visit.signed_in',
  'visit.missed',
  'visit.late_cancelled',
  'visit.booked',
  'stream.played',
  'purchase.purchased',
  'purchase.renewal',
  'purchase.cancellation',
  'purchase.expiration',
  'purchase.refund',
  'purchase.billing_issue',
  'purchase.product_change',
  'purchase.other',
  'override.granted',
  'override.extended',
  'override.ended',
  'override.expired',
  'push.staff',
  'push.automated',
  'push.broadcast',
  'push.opened',
  'push.held_out',
  'contract_sync.stored',
  'contract_sync.failed',
  'note.added',
  // the at-risk list's follow-ups (contract/contacts.ts)
  'contact.called',
  'contact.texted',
  'contact.left_message',
  'contact.snoozed',
] as const;
export type TimelineEvent = (typeof TIMELINE_EVENTS)[number];

export const TIMELINE_PAGE_DEFAULT = 25;
export const TIMELINE_PAGE_MAX = 100;

/**
 * `before`: the `next` of the previous page (an entry's exact time, source and id), or any ISO time
 * (entries strictly older). Microseconds are kept, so no entry is skipped or repeated across pages.
 */
export const TIMELINE_CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z(~\d{1,2}~\d{1,16})?$/;

const kindList = z
  .string()
  .max(200)
  .transform((text, ctx) => {
    const kinds = text
      .split(',')
      .map((kind) => kind.trim())
      .filter(Boolean);
    const unknown = kinds.find((kind) => !(TIMELINE_KINDS as readonly string[]).includes(kind));
    if (unknown !== undefined) {
      ctx.addIssue({ code: 'custom', message: `kinds: '${unknown}' is not one of ${TIMELINE_KINDS.join(', ')}` });
      return z.NEVER;
    }
    return [...new Set(kinds)] as TimelineKind[];
  });

export const TimelineQuery = z.object({
  kinds: kindList.optional().describe(`Comma-separated kinds to keep (${TIMELINE_KINDS.join(', ')}); empty or absent: all`),
  before: z.string().regex(TIMELINE_CURSOR, 'before must be the `next` of a previous page, or an ISO 8601 UTC time like 2026-11-22T12:00:00.000Z').optional(),
  limit: wholeNumber({ min: 1, max: TIMELINE_PAGE_MAX, message: `limit must be a whole number from 1 to ${TIMELINE_PAGE_MAX}` })
    .optional()
    .describe(`Entries per page (default ${TIMELINE_PAGE_DEFAULT})`),
});

export const TimelineEntry = z.object({
  id: z.string().describe('Unique within the timeline (source and row), for list keys'),
  at: z.iso.datetime(),
  kind: z.enum(TIMELINE_KINDS),
  event: z.enum(TIMELINE_EVENTS),
  title: z.string().describe('What it concerns: a class, a video, a level and its end, a push title'),
  detail: z.string().nullable().describe("More: a reason, a push's text, a status"),
  by: z.string().nullable().describe('The staff member who did it, when staff did'),
  until: z.iso.datetime().nullable().describe("An end the entry names: an override's, a snooze's"),
});
export type TimelineEntry = z.infer<typeof TimelineEntry>;

export const TimelineResponse = z.object({
  entries: z.array(TimelineEntry),
  next: z.string().nullable().describe('Pass as `before` for the next (older) page; null on the last page'),
});
export type TimelineResponse = z.infer<typeof TimelineResponse>;
