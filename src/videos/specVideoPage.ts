import type { GetListParams, GetListResult } from 'react-admin';
import type { Video } from '@contract/videos';

type SpecVideoField = keyof Video;
const SORTABLE: SpecVideoField[] = ['id', 'title', 'enabled', 'access_level_id'];

const compare = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' ? a.localeCompare(b, undefined, { sensitivity: 'base' }) : Number(a) - Number(b);

/**
 * A backend with only the spec's calls answers the whole library at once and nothing else: the list
 * filters (title, access level, enabled), sorts and pages it here. What the spec's answer does not
 * carry (category, deleted videos) matches nothing rather than everything.
 */
export function pageSpecVideos(videos: Video[], params: GetListParams): GetListResult<Video> {
  const filter = (params.filter ?? {}) as { q?: string; enabled?: boolean; access_level_id?: number; category_id?: number; deleted?: boolean };
  const q = filter.q?.trim().toLowerCase();
  const unknowable = filter.deleted === true || filter.category_id !== undefined;
  const matching = unknowable
    ? []
    : videos.filter(
        (video) =>
          (!q || video.title.toLowerCase().includes(q)) &&
          (filter.enabled === undefined || video.enabled === filter.enabled) &&
          (filter.access_level_id === undefined || video.access_level_id === filter.access_level_id),
      );
  const field = SORTABLE.includes(params.sort?.field as SpecVideoField) ? (params.sort!.field as SpecVideoField) : 'title';
  const direction = params.sort?.order === 'DESC' ? -1 : 1;
  const sorted = [...matching].sort((a, b) => direction * compare(a[field], b[field]) || a.id - b.id);
  const { page = 1, perPage = 25 } = params.pagination ?? {};
  return { data: sorted.slice((page - 1) * perPage, page * perPage), total: sorted.length };
}
