import { z } from 'zod';

/** One of the signed-in staff member's sessions (GET /api/admin/v1/sessions). */
export const StaffSession = z.object({
  id: z.string().describe('opaque; not the cookie and not usable as one'),
  created_at: z.iso.datetime({ offset: true }),
  last_seen_at: z.iso.datetime({ offset: true }).describe('updated at most once a minute'),
  expires_at: z.iso.datetime({ offset: true }).describe('the earlier of 30 minutes idle and 12 hours after sign-in'),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  current: z.boolean().describe('the session making this request'),
});
export type StaffSession = z.infer<typeof StaffSession>;

export const SessionParams = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a session id from the session list'),
});

export const EndOtherSessionsResponse = z.object({ ended: z.number().int() });
export type EndOtherSessionsResponse = z.infer<typeof EndOtherSessionsResponse>;
