import { z } from 'zod';
import { messageTypeParam } from './messaging';
import { Id, Int4Id } from './ids';
import { GoalKind, HoldoutPercent, WindowDays } from './outcomes';

/** Automated messages (docs/automation.md): calls under /api/admin/v1/automated-messages/... */

const hhmm = z.string({ message: "must be a time like '08:30'" }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time like '08:30' (24-hour clock)");
const int = (min: number, max: number, what: string) =>
  z
    .number({ message: `must be a whole number of ${what}` })
    .int(`must be a whole number of ${what}`)
    .min(min, `must be at least ${min} ${what}`)
    .max(max, `must be at most ${max} ${what}`);

/** Weekday 0 = Sunday ... 6 = Saturday (as in JavaScript's getDay). */
export const Weekday = z
  .number({ message: 'must be a weekday from 0 (Sunday) to 6 (Saturday)' })
  .int('must be a weekday from 0 (Sunday) to 6 (Saturday)')
  .min(0, 'must be a weekday from 0 (Sunday) to 6 (Saturday)')
  .max(6, 'must be a weekday from 0 (Sunday) to 6 (Saturday)');

/**
 * Trigger settings of one message type. Every type stores the whole set; each uses only its own fields
 * (AUTOMATION_FIELDS), so switching a type's meaning never loses a value.
 */
export const AutomationTypeSettings = z.object({
  /** Automated sending of this type on or off (templates keep their own 'enabled'). */
  active: z.boolean({ message: 'must be true or false' }),
  /** High Five: after the class ends; Cancelled Class: after the late cancellation. */
  delay_minutes: int(0, 7 * 24 * 60, 'minutes'),
  /** Missed Class: the next morning at; #notetoself and Monday Morning: at (studio time). */
  send_time: hhmm,
  /** #notetoself: the day of the week. */
  weekday: Weekday,
  /** #notetoself: clients with a class or a stream in the last this many days. */
  active_days: int(1, 365, 'days'),
  /** Extended Absense: no class and no stream for this many days. */
  absence_days: int(1, 365, 'days'),
  /** High Five: class numbers that use the milestone templates (those that contain {class_count}). */
  milestones: z.array(int(1, 100_000, 'classes'), { message: 'must be a list of class numbers' }).max(20, 'must list at most 20 milestones'),
  /** Did it work: the goal, its window after the push, and the share held out (docs/automation.md#did-it-work-goals-holdouts-and-lift). */
  goal: GoalKind,
  goal_window_days: WindowDays,
  holdout_percent: HoldoutPercent,
});
export type AutomationTypeSettings = z.infer<typeof AutomationTypeSettings>;
export type AutomationField = keyof AutomationTypeSettings;

const OUTCOME_FIELDS: AutomationField[] = ['goal', 'goal_window_days', 'holdout_percent'];

/** Which settings each type (1-6) uses, in the order the console shows them. */
export const AUTOMATION_FIELDS: Record<number, AutomationField[]> = {
  1: ['active', 'delay_minutes', 'milestones', ...OUTCOME_FIELDS],
  2: ['active', 'send_time', ...OUTCOME_FIELDS],
  3: ['active', 'weekday', 'send_time', 'active_days', ...OUTCOME_FIELDS],
  4: ['active', 'send_time', ...OUTCOME_FIELDS],
  5: ['active', 'delay_minutes', ...OUTCOME_FIELDS],
  6: ['active', 'absence_days', ...OUTCOME_FIELDS],
};

/** Rules shared by all types. */
export const AutomationGlobalSettings = z.object({
  /** Quiet hours in the studio's time zone: sends due inside them wait until they end. */
  quiet_start: hhmm,
  quiet_end: hhmm,
  /** At most this many automated pushes per client per studio-local day. */
  daily_cap: int(1, 20, 'pushes'),
});
export type AutomationGlobalSettings = z.infer<typeof AutomationGlobalSettings>;

export const AutomationTypeParams = z.object({ typeId: messageTypeParam() });

/** GET/PUT /api/admin/v1/automated-messages/{typeId}/settings */
export const AutomationSettingsResponse = z.object({
  message_type: z.number().int(),
  settings: AutomationTypeSettings,
  global: AutomationGlobalSettings,
  /** STUDIO_TIME_ZONE: every time above is in it. */
  time_zone: z.string(),
  /** When the next run that can send this type is due (weekly types: the next weekly moment). */
  next_run_at: z.iso.datetime({ offset: true }).nullable(),
  /** The signed-in staff member's device token for 'Send test to me', if they set one. */
  staff_device_token: z.string().nullable(),
});
export type AutomationSettingsResponse = z.infer<typeof AutomationSettingsResponse>;

export const UpdateAutomationSettingsRequest = z.object({
  settings: AutomationTypeSettings.partial().optional(),
  global: AutomationGlobalSettings.partial().optional(),
});
export type UpdateAutomationSettingsRequest = z.infer<typeof UpdateAutomationSettingsRequest>;

/** PUT /api/admin/v1/automated-messages/device-token: the signed-in staff member's own FCM token. */
export const DeviceTokenRequest = z.object({
  device_token: z
    .string({ message: 'must be text or null' })
    .trim()
    .max(4096, 'must be at most 4096 characters')
    .regex(/^[^\s]*$/, 'must not contain spaces')
    .nullable(),
});
export const DeviceTokenResponse = z.object({ staff_device_token: z.string().nullable() });

/** One client who would get the message, with the text they would read. */
export const AutomationPreviewItem = z.object({
  client_id: z.number().int(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  push_message_id: z.number().int().nullable(),
  title: z.string(),
  message: z.string(),
  due_at: z.iso.datetime({ offset: true }),
});
export type AutomationPreviewItem = z.infer<typeof AutomationPreviewItem>;

/** GET /api/admin/v1/automated-messages/{typeId}/preview */
export const AutomationPreviewResponse = z.object({
  /** The run the preview describes: from..to (weekly types: one moment, from = to). */
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
  count: z.number().int(),
  sample: z.array(AutomationPreviewItem),
  /** Why nothing would go out even with recipients (type paused, no enabled template). */
  blocked: z.string().nullable(),
});
export type AutomationPreviewResponse = z.infer<typeof AutomationPreviewResponse>;

export const SKIP_REASONS = ['opted_out', 'no_token', 'daily_cap', 'no_template', 'paused', 'expired', 'held_out'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

const Counts = z.object({
  sent: z.number().int(),
  failed: z.number().int(),
  skipped: z.record(z.string(), z.number().int()),
});

/** GET /api/admin/v1/automated-messages/{typeId}/counts: the last 30 days. */
export const AutomationCountsResponse = z.object({
  since: z.iso.datetime({ offset: true }),
  templates: z.array(Counts.extend({ push_message_id: z.number().int(), title: z.string(), message: z.string() })),
  /** Skipped before a template was chosen (paused, no enabled template, opted out). */
  without_template: Counts,
  total: Counts,
  /** Waiting: due later, deferred by quiet hours or retrying. */
  pending: z.number().int(),
});
export type AutomationCountsResponse = z.infer<typeof AutomationCountsResponse>;

/** POST /api/admin/v1/automated-messages/{typeId}/test */
export const SendTestRequest = z.object({
  push_message_id: Int4Id.optional(),
});
export const SendTestResponse = z.object({
  status: z.enum(['sent', 'failed']),
  title: z.string(),
  message: z.string(),
  error: z.string().nullable(),
});
export type SendTestResponse = z.infer<typeof SendTestResponse>;

/** An automated push as the client page lists it. */
export const ClientAutomatedPush = z.object({
  id: z.number().int(),
  message_type: z.number().int(),
  msg_type_title: z.string(),
  status: z.enum(['pending', 'sending', 'sent', 'skipped', 'failed']),
  skip_reason: z.string().nullable(),
  title: z.string().nullable(),
  message: z.string().nullable(),
  planned_for: z.iso.datetime({ offset: true }),
  sent_at: z.iso.datetime({ offset: true }).nullable(),
  last_error: z.string().nullable(),
});
export type ClientAutomatedPush = z.infer<typeof ClientAutomatedPush>;

export const ClientIdParams = z.object({
  id: Id,
});
/** GET /api/admin/v1/clients/{id}/automated-messages */
export const ClientAutomatedPushesResponse = z.object({
  opted_out: z.boolean(),
  pushes: z.array(ClientAutomatedPush),
});
export type ClientAutomatedPushesResponse = z.infer<typeof ClientAutomatedPushesResponse>;
/** PUT /api/admin/v1/clients/{id}/automated-messages */
export const ClientOptOutRequest = z.object({ opted_out: z.boolean({ message: 'must be true or false' }) });
