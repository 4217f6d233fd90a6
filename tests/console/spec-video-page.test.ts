import { describe, expect, it } from 'vitest';
import { pageSpecVideos } from '../../src/videos/specVideoPage';

const video = (id: number, title: string, enabled = true, access_level_id = 1) => ({ id, title, thumbnail_url: null, enabled, access_level_id });
const library = [video(1, 'yoga flow', true, 2), video(2, 'Barre Basics', false, 1), video(3, 'Power Yoga', true, 3), video(4, 'HIIT', true, 2)];
const params = (extra: object = {}) => ({ pagination: { page: 1, perPage: 25 }, sort: { field: 'title', order: 'ASC' as const }, filter: {}, ...extra });

describe("the Video Manager list on a backend with only spec §7's calls", () => {
  it('sorts by title regardless of case, and by any column the spec answer carries', () => {
    expect(pageSpecVideos(library, params()).data.map((v) => v.id)).toEqual([2, 4, 3, 1]);
    expect(pageSpecVideos(library, params({ sort: { field: 'access_level_id', order: 'DESC' } })).data.map((v) => v.id)).toEqual([3, 1, 4, 2]);
  });

  it('filters by title words, enabled and access level, and pages with the total', () => {
    expect(pageSpecVideos(library, params({ filter: { q: 'YOGA' } })).data.map((v) => v.id)).toEqual([3, 1]);
    expect(pageSpecVideos(library, params({ filter: { enabled: false } })).data.map((v) => v.id)).toEqual([2]);
    expect(pageSpecVideos(library, params({ filter: { access_level_id: 2 } })).data.map((v) => v.id)).toEqual([4, 1]);
    expect(pageSpecVideos(library, params({ pagination: { page: 2, perPage: 3 } }))).toEqual({ data: [library[0]], total: 4 });
  });

  it('finds nothing for what the spec answer does not carry (category, deleted videos)', () => {
    expect(pageSpecVideos(library, params({ filter: { category_id: 3 } }))).toEqual({ data: [], total: 0 });
    expect(pageSpecVideos(library, params({ filter: { deleted: true } }))).toEqual({ data: [], total: 0 });
  });
});
