import { z } from 'zod';
import { jsonParam, rangeParam, sortParam } from './raSimpleRest';
import { Id } from './ids';

/**
 * Every action the audit log knows. Routes record one of these; the console offers them in the
 * Audit Log's action filter. Add the name here in the same commit as the route that records it.
 */
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.sign_out',
  // a signed-in staff member's role lacked the route's permission (server/src/auth/guard.ts)
  'auth.access_denied',
  // two-step sign-in and re-authentication (docs/security-signin.md)
  'auth.two_step_enable',
  'auth.two_step_disable',
  'auth.two_step_reset',
  'auth.two_step_required',
  'auth.reauth',
  'auth.reauth_failed',
  // passkeys: added and removed (a passkey's use is the sign-in or re-authentication it made)
  'auth.passkey_add',
  'auth.passkey_remove',
  // the staff screen, npm run staff, and an OIDC sign-in that changed a role
  'staff.create',
  'staff.update',
  'staff.password_reset',
  'staff.password_change',
  'staff.remove',
  'session.end',
  'message.create',
  'message.update',
  'video.update',
  'video.delete',
  'vimeo_sync.start',
  'mindbody_sync.start',
  // What staff change on one client.
  'client.access_level',
  'client.override_grant',
  'client.override_end',
  // The same level as the running override, until a later date
  'client.override_extend',
  // Staff notes and tags
  'client.note_add',
  'client.note_update',
  'client.note_delete',
  'client.tags',
  'client.push',
  'client.favorite_add',
  'client.favorite_remove',
  'client.contracts_sync',
  'automated_message.update',
  'client.automated_opt_out',
  // the Mindbody import found two rows to be one Mindbody client (server/src/mindbody/merge.ts)
  'client.merge',
  // a client's data rights: export, erasure, requests, retention
  'client.export',
  'client.erase',
  'data_request.log',
  'data_request.handled',
  'retention.update',
  // saved segments and broadcasts
  'segment.create',
  'segment.update',
  'segment.delete',
  'broadcast.create',
  'broadcast.edit',
  'broadcast.send',
  'broadcast.cancel',
  // a version of a broadcast's text picked for the rest (the system acts)
  'broadcast.winner',
  // the Revenue area's backfill of its kept figures
  'revenue.backfill',
  // the at-risk list: a contact logged (called, texted, left a message), a snooze off the list
  'client.contact',
  'client.snooze',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEntry = z.object({
  id: z.number().int(),
  at: z.iso.datetime({ offset: true }),
  staff_user_id: z.number().int().nullable(),
  staff_email: z.string().nullable().describe('who acted; for a failed sign-in, the account that was tried'),
  action: z.string().describe('one of AUDIT_ACTIONS'),
  target_type: z.string().describe('message, video, client, session, staff_user, vimeo_sync, mindbody_sync…'),
  target_id: z.string().nullable(),
  client_id: z.number().int().nullable().describe('the client the action concerned, if any'),
  before: z.record(z.string(), z.unknown()).nullable().describe('changed fields before (null when created)'),
  after: z.record(z.string(), z.unknown()).nullable().describe('changed fields after (null when removed)'),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AUDIT_SORT_FIELDS = ['at', 'id', 'action', 'staff_email'] as const;

const Day = z.iso.date({ error: 'must be a date like 2026-11-22' });
const Instant = z.union([z.iso.datetime({ offset: true }), Day], { error: 'must be a date like 2026-11-22 or an ISO timestamp' });

// null means "no filter", as react-admin may send a cleared input that way.
export const AuditFilter = z
  .object({
    q: z.string().max(200, 'at most 200 characters').nullish().describe('action, staff e-mail or target id contains'),
    staff_email: z.string().max(320, 'at most 320 characters').nullish(),
    action: z.string().max(80, 'at most 80 characters').nullish(),
    client_id: Id.nullish(),
    target_type: z.string().max(80, 'at most 80 characters').nullish(),
    target_id: z.string().max(80, 'at most 80 characters').nullish(),
    from: Instant.nullish().describe('at or after; a bare date means its start (UTC)'),
    to: Instant.nullish().describe('at or before; a bare date means its whole day (UTC)'),
    id: z.array(Id).max(500).nullish().describe('getMany: these ids'),
  })
  .strict();
export type AuditFilter = z.infer<typeof AuditFilter>;

export const AuditListQuery = z.object({
  sort: sortParam(AUDIT_SORT_FIELDS).optional(),
  range: rangeParam.optional(),
  filter: jsonParam(AuditFilter, '{"action":"video.update"}').optional(),
});

export const AuditExportQuery = z.object({
  filter: jsonParam(AuditFilter, '{"action":"video.update"}').optional(),
});

/** Rows one CSV export holds at most, newest first. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

export const StaffMember = z.object({ id: z.number().int(), email: z.string(), nickname: z.string() });
export type StaffMember = z.infer<typeof StaffMember>;
