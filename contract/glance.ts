import { z } from 'zod';

export const UPCOMING_CLASSES_SHOWN = 5;

/** The client "at a glance", above the client page's sections. */
export const ClientGlance = z.object({
  member_since: z.iso.datetime().nullable().describe('First login in the app, else when the client was first stored'),
  last_class: z.object({ at: z.iso.datetime(), name: z.string() }).nullable().describe('The newest class visit they signed in to'),
  last_stream: z.object({ at: z.iso.datetime(), title: z.string() }).nullable().describe('The newest video view'),
  level_name: z.string().nullable().describe("The access level in force now (an override's while one runs)"),
  plan: z
    .object({
      name: z.string().nullable().describe("The purchase's access level"),
      product: z.string().nullable().describe('The store product (subscription_identifier)'),
      status: z.string().nullable(),
      renews: z.boolean().describe('True: renews at ends_at; false: access ends at ends_at'),
      ends_at: z.iso.datetime().nullable().describe('Renewal or expiry date; null: no end'),
    })
    .nullable()
    .describe('The purchase giving access now, newest first; null when none does'),
  override_ends_at: z.iso.datetime().nullable().describe("A running admin override's end, shown apart from the plan's"),
  lifetime_purchases: z.number().int(),
  platforms: z.array(z.string()).describe("The app's platforms they use: ios, ipad, android, …"),
  push_reachable: z.boolean().describe('A device token a push can go to (not reported dead by FCM)'),
  mindbody_status: z.string().describe("Mindbody's status; 'Pending' when none"),
  mindbody_linked: z.boolean(),
  tags: z.array(z.string()),
  // What front-desk staff look for first (docs/features.md#clients).
  phone: z.string().nullable().describe("Mindbody's phone number (mobile, else home, else work)"),
  visits_total: z.number().int().describe('Classes the client signed in to, ever (as imported from Mindbody)'),
  visits_30d: z.number().int().describe('Classes the client signed in to in the last 30 days'),
  days_since_last_visit: z.number().int().nullable().describe('Whole days since the last signed-in class; null: none'),
  total_spent_usd: z
    .number()
    .nullable()
    .describe("The sum of RevenueCat's `price` (USD) over the client's production events, refunds negative; null: none carries a price"),
  last_app_open: z.iso.datetime().nullable().describe("The app's last report for the client: a device report or a video view"),
  upcoming_classes: z
    .array(z.object({ at: z.iso.datetime(), name: z.string() }))
    .describe(`Classes booked in Mindbody from now on, soonest first (at most ${UPCOMING_CLASSES_SHOWN}; imported with the visits)`),
});
export type ClientGlance = z.infer<typeof ClientGlance>;
