import { z } from 'zod';

// Reports the studio's mobile app posts (X-App-Key). The client is named by e-mail or MindBody id.
const email = z.email('must be an e-mail address').max(320);
const mbClientId = z.string().trim().min(1).max(64);
const text = (max: number) => z.string().trim().max(max).nullish();
const size = z.number().nonnegative().max(100_000).nullish();
const timestamp = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time like 2026-11-22T12:00:00Z' });
const jsonObject = z.record(z.string(), z.unknown());

/** What the app's `Platform.OS` says on the phones it ships to; each is a device slot for pushes. */
export const APP_PLATFORMS = ['ios', 'android'] as const;
const platform = z
  .string()
  .meta({ description: `${APP_PLATFORMS.join(' or ')}, in any letter case` })
  .trim()
  .toLowerCase()
  .pipe(z.enum(APP_PLATFORMS, { message: `must be one of ${APP_PLATFORMS.join(', ')}` }));

const namesClient = (body: { email?: string | null; mb_client_id?: string | null }) => Boolean(body.email || body.mb_client_id);
const nameTheClient = { message: 'email or mb_client_id is required', path: ['email'] };

/** POST /api/app/v1/debug-info: one debug record (the spec's fields). */
export const DebugInfoBody = z
  .object({
    email: email.nullish(),
    mb_client_id: mbClientId.nullish(),
    app_access_level: text(100),
    firebase_token_new: text(4096),
    firebase_token_current: text(4096),
    platform: platform.nullish(),
    platform_version: text(40),
    is_ipad: z.boolean().nullish(),
    screen_width: size,
    screen_height: size,
    device_width: size,
    device_height: size,
    /** The device's own idea of its address; the request's address is stored when absent. */
    ip: text(64),
    app_version: text(40),
    /** When the app sent it (shown to staff, never used to order devices); the time of arrival when absent. At most a few minutes ahead. */
    sent_at: timestamp.nullish(),
    device_constants: jsonObject.nullish(),
    network_info: jsonObject.nullish(),
  })
  .refine(namesClient, nameTheClient);
export type DebugInfoBody = z.infer<typeof DebugInfoBody>;

export const DebugInfoResponse = z.object({
  id: z.number().int(),
  /** null when no client matches yet: the record is attached once the client is imported. */
  client_id: z.number().int().nullable(),
});
export type DebugInfoResponse = z.infer<typeof DebugInfoResponse>;

/** POST /api/app/v1/video-views: one streamed video. */
export const VideoViewBody = z
  .object({
    email: email.nullish(),
    mb_client_id: mbClientId.nullish(),
    vimeo_video_id: z.union([z.string().trim().min(1).max(64), z.number().int().positive()]),
    viewed_at: timestamp,
  })
  .refine(namesClient, nameTheClient);
export type VideoViewBody = z.infer<typeof VideoViewBody>;

export const VideoViewResponse = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  video_id: z.number().int(),
  /** true when the same view (client, video, viewed_at) was already stored: an app retry. */
  duplicate: z.boolean(),
});
export type VideoViewResponse = z.infer<typeof VideoViewResponse>;

/** POST /api/app/v1/push-opened: the client opened a push (its `push_id` is in the push's data). */
export const PushOpenedBody = z
  .object({
    email: email.nullish(),
    mb_client_id: mbClientId.nullish(),
    push_id: z.union(
      [
        z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
        z
          .string()
          .regex(/^[0-9]{1,15}$/, 'must be a push id')
          .transform(Number),
      ],
      {
        message: 'push_id must be the push_id of the push (a positive whole number)',
      },
    ),
    /** When it was opened; the time of arrival when absent. At most a few minutes ahead. */
    opened_at: timestamp.nullish(),
  })
  .refine(namesClient, nameTheClient);
export type PushOpenedBody = z.input<typeof PushOpenedBody>;

export const PushOpenedResponse = z.object({
  push_id: z.number().int(),
  opened_at: z.iso.datetime({ offset: true }),
  /** true when this push was reported opened before: the first report stands. */
  duplicate: z.boolean(),
});
export type PushOpenedResponse = z.infer<typeof PushOpenedResponse>;
