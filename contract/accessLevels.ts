import { z } from 'zod';
import { OptionVideo } from './clients';

/** GET /api/client/v1/vod-access-levels. */
export const AccessLevel = z.object({ name: z.string(), sort_order: z.number().int() });
export type AccessLevel = z.infer<typeof AccessLevel>;
export const AccessLevelsResponse = z.object({
  levels: z.array(AccessLevel),
  override_max_days: z.number().int().optional().describe('Extension (issue 24): how far ahead an override may end (OVERRIDE_MAX_DAYS)'),
});

export const VideoOptionsParams = z.object({
  vodAccessLevel: z.string().trim().min(1).max(40).describe("The level's sort_order (1-3) or its name ('VOD | BASIC' or just 'BASIC')"),
});

/** GET /api/client/v1/video-options/{vodAccessLevel}: the videos that level may watch, by category. */
export const VideoOptionGroup = z.object({ category: z.string(), video_options: z.array(OptionVideo) });
export type VideoOptionGroup = z.infer<typeof VideoOptionGroup>;
export const VideoOptionsResponse = z.object({ videos: z.array(VideoOptionGroup) });
