import { z } from 'zod';
import type { CatalogueVideo } from './types';

// Vimeo API 3.4 as it arrives on the wire (Vimeo's common formats and OpenAPI; docs/integrations.md). Lenient on
// purpose: only what the sync reads is checked, everything else Vimeo adds is ignored.

const PictureSize = z.object({
  width: z.number(),
  height: z.number().nullable().optional(),
  link: z.string(),
});

export const WireVideo = z.object({
  uri: z.string().regex(/^\/videos\/\d+/, 'must look like /videos/<id>'),
  name: z.string().nullable().optional(),
  duration: z.number().nullable().optional(),
  pictures: z
    .object({ sizes: z.array(PictureSize).nullable().optional() })
    .nullable()
    .optional(),
  tags: z
    .array(z.object({ name: z.string() }))
    .nullable()
    .optional(),
  categories: z
    .array(z.object({ name: z.string() }))
    .nullable()
    .optional(),
});
export type WireVideo = z.infer<typeof WireVideo>;

export const WirePage = z.object({
  total: z.number().optional(),
  page: z.number().optional(),
  per_page: z.number().optional(),
  paging: z.object({ next: z.string().nullable().optional() }).optional(),
  data: z.array(WireVideo),
});
export type WirePage = z.infer<typeof WirePage>;

/** The `fields` filter: only what toCatalogueVideo reads travels over the wire. */
export const VIDEO_FIELDS = 'uri,name,duration,pictures.sizes.width,pictures.sizes.height,pictures.sizes.link,tags.name,categories.name';

export const THUMBNAIL_WIDTH = 300;

/** The picture whose width is closest to `width`; on a tie the larger one, which scales down cleanly. */
export function closestPicture(sizes: { width: number; link: string }[], width = THUMBNAIL_WIDTH): string | null {
  let best: { width: number; link: string } | undefined;
  for (const size of sizes) {
    if (!size.link) continue;
    const distance = Math.abs(size.width - width);
    const bestDistance = best ? Math.abs(best.width - width) : Infinity;
    if (distance < bestDistance || (distance === bestDistance && best && size.width > best.width)) best = size;
  }
  return best?.link ?? null;
}

export function vimeoIdOf(uri: string): string {
  return /^\/videos\/(\d+)/.exec(uri)![1]!;
}

/** Tag and category names, deduplicated case-insensitively and sorted, so a re-sync compares equal. */
export function tagNames(video: Pick<WireVideo, 'tags' | 'categories'>): string[] {
  const seen = new Map<string, string>();
  for (const { name } of [...(video.tags ?? []), ...(video.categories ?? [])]) {
    const trimmed = name.trim();
    if (trimmed && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed);
  }
  return [...seen.values()].sort((a, b) => a.localeCompare(b, 'en'));
}

export function toCatalogueVideo(video: WireVideo): CatalogueVideo {
  const id = vimeoIdOf(video.uri);
  const title = (video.name ?? '').trim();
  return {
    vimeo_video_id: id,
    title: title || `Untitled Vimeo video ${id}`,
    duration: Math.max(0, Math.round(video.duration ?? 0)),
    thumbnail_url: closestPicture(video.pictures?.sizes ?? []),
    tags: tagNames(video),
  };
}
