import { z } from 'zod';
import { Client, Contract } from './clients';
import { wholeNumber } from './ids';
import { FAVORITES_CATEGORY_ID, OVERRIDE_REASON_MAX, PUSH_BODY_MAX, PUSH_TITLE_MAX, hasMindBodyId, isPlaceholder } from './clientRules';

/** An in-band problem of the spec's action calls: the console shows Error when the list is not empty. */
export const ActionError = z.object({ message: z.string(), path: z.string().optional(), code: z.string().optional() });
export type ActionError = z.infer<typeof ActionError>;

const nullableText = (name: string, max: number) =>
  z
    .string({ message: `${name} must be text` })
    .trim()
    .max(max, `${name} must be at most ${max} characters`)
    .nullish();

const identified = (body: { email_address?: string | null; mb_client_id?: string | null }) =>
  !isPlaceholder(body.email_address) || (!isPlaceholder(body.mb_client_id) && hasMindBodyId(body.mb_client_id));
const IDENTITY_MESSAGE = "Send the client's email_address or mb_client_id (a MindBody id longer than 2 characters)";

/** POST /api/client/v1/client-details/favorites-videos-update. */
export const FavoritesUpdateBody = z
  .object({
    vimeo_video_id: z
      .union([z.string(), z.number().int().nonnegative()], { message: 'vimeo_video_id is required: the Vimeo id of the video' })
      .transform((value) => String(value).trim())
      .pipe(z.string().min(1, 'vimeo_video_id must not be empty').max(40, 'vimeo_video_id must be at most 40 characters')),
    email_address: nullableText('email_address', 320),
    mb_client_id: nullableText('mb_client_id', 64),
    video_category_id: wholeNumber({ min: 0, max: 1_000_000, message: `video_category_id must be ${FAVORITES_CATEGORY_ID}` })
      .refine((value) => value === FAVORITES_CATEGORY_ID, `video_category_id must be ${FAVORITES_CATEGORY_ID} (the favorites category)`)
      .default(FAVORITES_CATEGORY_ID),
    update_type: z.enum(['add', 'remove'], { message: "update_type must be 'add' or 'remove'" }),
  })
  .refine(identified, { message: IDENTITY_MESSAGE, path: ['email_address'] });
export type FavoritesUpdateBody = z.input<typeof FavoritesUpdateBody>;

export const FavoritesUpdateResponse = z.object({
  errors: z.array(ActionError).describe('Empty when done; adding twice keeps one favorite, removing a missing one is no error'),
});
export type FavoritesUpdateResponse = z.infer<typeof FavoritesUpdateResponse>;

/** POST /api/client/v1/client-details/update-access-level. */
export const UpdateAccessLevelBody = z.object({
  client_id: wholeNumber({ min: 1, max: Number.MAX_SAFE_INTEGER, message: 'client_id must be the client id (a positive whole number)' }),
  new_vod_access_level: wholeNumber({ min: 0, max: 1000, message: "new_vod_access_level must be the level's sort_order (a whole number)" }),
  adminOverrideDate: z.iso
    .datetime({ offset: true, message: 'adminOverrideDate must be an ISO 8601 date and time, e.g. 2026-11-29T12:00:00.000Z' })
    .describe('When the override ends: in the future, at most OVERRIDE_MAX_DAYS ahead (server configuration, 365 days unless set)'),
  reason: nullableText('reason', OVERRIDE_REASON_MAX).describe(
    `Optional (issue 24): why staff grant it, at most ${OVERRIDE_REASON_MAX} characters; kept in the audit entry and the override history`,
  ),
});
export type UpdateAccessLevelBody = z.input<typeof UpdateAccessLevelBody>;

export const UpdateAccessLevelResponse = z.object({
  errors: z.array(ActionError),
  client: Client.describe('The client as it is now: new level and admin_updated_expiration'),
});
export type UpdateAccessLevelResponse = z.infer<typeof UpdateAccessLevelResponse>;

/** POST /api/client/v1/client-details/push-notification. */
export const PushNotificationBody = z
  .object({
    notification: z.object(
      {
        title: z
          .string({ message: 'notification.title must be text' })
          .trim()
          .max(PUSH_TITLE_MAX, `notification.title must be at most ${PUSH_TITLE_MAX} characters`)
          .default(''),
        body: z
          .string({ message: 'notification.body is required: the message text' })
          .trim()
          .min(1, 'notification.body must not be empty')
          .max(PUSH_BODY_MAX, `notification.body must be at most ${PUSH_BODY_MAX} characters`),
      },
      { message: 'notification is required: { title, body }' },
    ),
    email_address: nullableText('email_address', 320),
    mb_client_id: nullableText('mb_client_id', 64),
  })
  .refine(identified, { message: IDENTITY_MESSAGE, path: ['email_address'] });
export type PushNotificationBody = z.input<typeof PushNotificationBody>;

// Loose: Fastify replaces request.headers with the parsed value, and the other headers must stay.
export const PushNotificationHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .trim()
    .min(8, 'Idempotency-Key must be 8 to 100 characters')
    .max(100, 'Idempotency-Key must be 8 to 100 characters')
    .optional()
    .describe('A repeated request with the same key answers the first outcome instead of pushing again'),
});

export const PushTokenResult = z.object({
  token: z.string(),
  outcome: z.enum(['sent', 'dead', 'failed', 'deferred']).describe('deferred: FCM asked to wait (QUOTA_EXCEEDED, UNAVAILABLE); retried at retry_at'),
  message_id: z.string().optional(),
  code: z.string().optional(),
  error: z.string().optional(),
  retry_after_ms: z.number().optional(),
  retry_at: z.iso.datetime().optional(),
});
export type PushTokenResult = z.infer<typeof PushTokenResult>;

export const PushNotificationResponse = z.object({
  updated: z.boolean().describe("True when at least one of the client's devices got the push"),
  message: z.string().optional().describe('Why nothing was delivered, when updated is false'),
  queued: z.boolean().optional().describe('True when FCM asked to wait: the push is retried in the background (message says when)'),
  push_id: z.number().int(),
  results: z.array(PushTokenResult),
});
export type PushNotificationResponse = z.infer<typeof PushNotificationResponse>;

/** GET /api/admin/v1/pushes (extension, ra-data-simple-rest): a client's recent pushes. */
export const PushRecord = z.object({
  id: z.number().int(),
  client_id: z.number().int().nullable(),
  sent_by: z.string().describe("The staff member's e-mail, or 'automated'"),
  source: z.string(),
  title: z.string(),
  body: z.string(),
  status: z.enum(['sending', 'sent', 'failed', 'no_token', 'queued']),
  reason: z.string().nullable(),
  results: z.array(PushTokenResult),
  created_at: z.iso.datetime(),
});
export type PushRecord = z.infer<typeof PushRecord>;

/** GET /api/v1/sync/contracts/{siteId}/{mbClientId}. */
export const ContractSyncParams = z.object({
  siteId: z
    .string()
    .trim()
    .refine((value) => /^-?\d{1,9}$/.test(value) || isPlaceholder(value), 'siteId must be a MindBody site id like -99 or 5739')
    .describe("The client's MindBody site; 'null' uses the site stored with the client"),
  mbClientId: z.string().trim().min(3, 'mbClientId must be a MindBody id longer than 2 characters').max(64, 'mbClientId must be at most 64 characters'),
});

export const ContractSyncResponse = z.object({
  errors: z.array(ActionError).describe('Empty when the sync stored the contracts; otherwise the stored copy is unchanged'),
  mbContracts: z.array(Contract).describe("The client's contracts as now stored"),
});
export type ContractSyncResponse = z.infer<typeof ContractSyncResponse>;
