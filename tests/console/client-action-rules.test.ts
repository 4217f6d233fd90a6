import { describe, expect, it } from 'vitest';
import { favoriteOptionLabel, favoriteOptions, newIdempotencyKey } from '../../src/clients/actions/actionRules';
import type { OptionVideo } from '@contract/clients';

const yoga: OptionVideo = { vimeo_video_id: '9001', title: 'Sunrise Yoga', instructor: 'Mara', duration: 1500 };
const hiit: OptionVideo = { vimeo_video_id: '9002', title: 'HIIT Blast', instructor: '  ', duration: 45 };
const noVimeo: OptionVideo = { vimeo_video_id: null, title: 'Draft', instructor: null, duration: 60 };

describe('favorites modal rules', () => {
  it('lists every video with a Vimeo id by category, marking those already favorites', () => {
    const options = favoriteOptions(
      [
        { category: 'Yoga', video_options: [yoga, noVimeo] },
        { category: 'HIIT', video_options: [hiit] },
      ],
      [yoga],
    );
    expect(options.map((o) => [o.category, o.video.title, o.taken])).toEqual([
      ['Yoga', 'Sunrise Yoga', true],
      ['HIIT', 'HIIT Blast', false],
    ]);
  });

  it("writes the title, ' - COACH: instructor' when there is one, and the length", () => {
    const texts = {
      coach: (instructor: string) => ` - COACH: ${instructor}`,
      length: (seconds: number) => `${Math.floor(seconds / 60)} MINUTE(S)`,
      join: ({ title, coach, length }: { title: string; coach: string; length: string }) => `${title}${coach} (${length})`,
    };
    expect(favoriteOptionLabel(yoga, texts)).toBe('Sunrise Yoga - COACH: Mara (25 MINUTE(S))');
    expect(favoriteOptionLabel(hiit, texts)).toBe('HIIT Blast (0 MINUTE(S))');
  });

  it('makes a new idempotency key each time', () => {
    const keys = new Set(Array.from({ length: 20 }, newIdempotencyKey));
    expect(keys.size).toBe(20);
    for (const key of keys) expect(key.length).toBeGreaterThanOrEqual(8);
  });
});
