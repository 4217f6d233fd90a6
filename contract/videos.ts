import { z } from 'zod';
import { jsonParam, rangeParam, sortParam } from './raSimpleRest';
import { Int4Id } from './ids';

/** Access level ids in the video list. */
export const VIDEO_ACCESS_LEVELS = [
  { id: 1, name: 'VOD | FREE' },
  { id: 2, name: 'VOD | BASIC' },
  { id: 3, name: 'VOD | PREMIUM' },
] as const;

export const AccessLevelId = z
  .int('must be 1 (VOD | FREE), 2 (VOD | BASIC) or 3 (VOD | PREMIUM)')
  .min(1, 'must be 1 (VOD | FREE), 2 (VOD | BASIC) or 3 (VOD | PREMIUM)')
  .max(3, 'must be 1 (VOD | FREE), 2 (VOD | BASIC) or 3 (VOD | PREMIUM)');

const Timestamp = z.iso.datetime({ offset: true });

// ---- The spec's GET /api/client/v1/videos ----

/** Video (list), as the spec defines it. */
export const Video = z.object({
  id: z.number().int(),
  title: z.string(),
  thumbnail_url: z.string().nullable(),
  enabled: z.boolean(),
  access_level_id: z.number().int(),
});
export type Video = z.infer<typeof Video>;

export const VideosResponse = z.object({ videos: z.array(Video) });
export type VideosResponse = z.infer<typeof VideosResponse>;

// ---- Extension: /api/admin/v1/videos (ra-data-simple-rest) ----

/** What the Video Manager edits, plus what Vimeo says about the video (read-only here). */
export const AdminVideo = Video.extend({
  vimeo_video_id: z.string().nullable(),
  duration: z.number().int().describe('seconds'),
  category_id: z.number().int().nullable(),
  category: z.string().nullable(),
  instructor: z.string().nullable(),
  tags: z.array(z.string()).describe('Vimeo tag and category names'),
  title_edited: z.boolean().describe('staff changed the title, so syncs keep it'),
  deleted_at: Timestamp.nullable(),
  vimeo_missing_since: Timestamp.nullable().describe('a complete sync last found it missing from Vimeo'),
  created_at: Timestamp,
  updated_at: Timestamp,
  // Recomputed every 10 minutes (0 and null until the first run after the video appears).
  plays_30d: z.number().int().describe('Plays over the last 30 days'),
  viewers_30d: z.number().int().describe('Distinct clients who played it over the last 30 days'),
  favorites: z.number().int().describe('Clients who have it among their favorites'),
  last_played_at: Timestamp.nullable().describe('The newest play; null: never played'),
});
export type AdminVideo = z.infer<typeof AdminVideo>;

export const ADMIN_VIDEO_SORT_FIELDS = [
  'title',
  'id',
  'enabled',
  'access_level_id',
  'category',
  'instructor',
  'duration',
  'updated_at',
  'plays_30d',
  'viewers_30d',
  'favorites',
  'last_played_at',
] as const;

// null means "no filter", as react-admin may send a cleared input that way.
export const AdminVideoFilter = z
  .object({
    q: z.string().max(200, 'at most 200 characters').nullish().describe('title contains (react-admin search box)'),
    title: z.string().max(200, 'at most 200 characters').nullish().describe('title contains'),
    category_id: Int4Id.nullish(),
    access_level_id: AccessLevelId.nullish(),
    enabled: z.boolean('must be true or false').nullish(),
    deleted: z.boolean('must be true or false').nullish().describe('true lists only deleted videos (to restore them)'),
    missing: z.boolean('must be true or false').nullish().describe('true lists only videos gone from Vimeo'),
    never_played: z.boolean('must be true or false').nullish().describe('true: only videos nobody has played yet; false: only played ones'),
    id: z.array(Int4Id).max(500).nullish().describe('getMany: these ids, deleted or not'),
  })
  .strict();
export type AdminVideoFilter = z.infer<typeof AdminVideoFilter>;

export const AdminVideoListQuery = z.object({
  sort: sortParam(ADMIN_VIDEO_SORT_FIELDS).optional(),
  range: rangeParam.optional(),
  filter: jsonParam(AdminVideoFilter, '{"q":"yoga","enabled":true}').optional(),
});

const OptionalText = (max: number) =>
  z
    .string('must be text')
    .trim()
    .max(max, `at most ${max} characters`)
    .nullable()
    .transform((value) => (value ? value : null));

/**
 * PUT /api/admin/v1/videos/{id}. Every field is optional (the switches send one field; the edit
 * form sends the whole record, whose read-only fields are ignored).
 */
export const AdminVideoUpdate = z.object({
  title: z.string('must be text').trim().min(1, 'is required').max(200, 'at most 200 characters').optional(),
  instructor: OptionalText(120).optional(),
  category_id: Int4Id.nullable().optional(),
  access_level_id: AccessLevelId.optional(),
  enabled: z.boolean('must be true or false').optional(),
  deleted_at: z.iso
    .datetime({ offset: true, error: 'must be null (to restore the video) or a timestamp' })
    .nullable()
    .optional()
    .describe('null restores a deleted video'),
});
export type AdminVideoUpdate = z.infer<typeof AdminVideoUpdate>;

export const VideoCategory = z.object({ id: z.number().int(), name: z.string() });
export type VideoCategory = z.infer<typeof VideoCategory>;

// ---- Vimeo sync: the spec's GET /api/v1/sync/all-vimeo-videos, and /api/admin/v1/vimeo-syncs ----

export const VimeoSyncState = z.enum(['queued', 'running', 'done', 'failed']);
export type VimeoSyncState = z.infer<typeof VimeoSyncState>;

export const VimeoSync = z.object({
  id: z.number().int(),
  state: VimeoSyncState,
  source: z.enum(['vimeo', 'sandbox']).describe('sandbox: the fake catalogue used without VIMEO_ACCESS_TOKEN'),
  requested_by: z.string().nullable(),
  pages_done: z.number().int(),
  pages_total: z.number().int().nullable(),
  videos_seen: z.number().int(),
  videos_added: z.number().int(),
  videos_updated: z.number().int(),
  videos_missing: z.number().int().describe('videos newly found gone from Vimeo'),
  error: z.string().nullable(),
  created_at: Timestamp,
  started_at: Timestamp.nullable(),
  finished_at: Timestamp.nullable(),
});
export type VimeoSync = z.infer<typeof VimeoSync>;

/** 200 whether it started a sync or one was already under way (then already_running and that sync). */
export const StartVimeoSyncResponse = z.object({
  started: z.boolean(),
  already_running: z.boolean(),
  sync: VimeoSync,
});
export type StartVimeoSyncResponse = z.infer<typeof StartVimeoSyncResponse>;

export const VimeoSyncListQuery = z.object({
  sort: sortParam(['id', 'created_at', 'finished_at'] as const).optional(),
  range: rangeParam.optional(),
  filter: jsonParam(z.object({ state: VimeoSyncState.optional() }).strict(), '{"state":"done"}').optional(),
});
