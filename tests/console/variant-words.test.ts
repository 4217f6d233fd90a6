import { describe, expect, it } from 'vitest';
import type { BroadcastOutcome } from '@contract/outcomes';
import { winnerSentence } from '../../src/broadcasts/variantWords';

const version = (index: number) => ({ index }) as BroadcastOutcome['variants'][number];
const words = (metric: string) => `${metric} rate`;
const picked = (reason: 'better' | 'no_clear_winner' | 'no_data', index: number, hits: number[], clients: number[]) => ({
  variants: hits.map((_, i) => version(i)),
  winner: {
    index,
    reason,
    metric: 'conversion' as const,
    picked_at: '2026-11-20T14:00:00Z',
    versions: hits.map((h, i) => ({ clients: clients[i]!, hits: h, rate: clients[i] ? h / clients[i]! : null })),
  },
  winner_due_at: null,
  waiting: 0,
});

describe("why a broadcast's version went to the rest, in plain words", () => {
  it("names the winner's rate against the others' when it is better beyond the interval", () => {
    // 30 / 250 = 12 %, 15 / 200 = 7.5 %, 9 / 150 = 6 %
    expect(winnerSentence(picked('better', 0, [30, 15, 9], [250, 200, 150]), 'conversion', words)).toEqual({
      key: 'outcomes.versions.better',
      options: { letter: 'A', rate: '12 %', others: '7.5 % and 6 %', metric: 'conversion rate' },
    });
    expect(winnerSentence(picked('better', 1, [15, 30], [200, 250]), 'conversion', words)?.options).toMatchObject({
      letter: 'B',
      rate: '12 %',
      others: '7.5 %',
    });
  });

  it('says the first was sent when none is better, or when there were no figures', () => {
    // 31 / 100 and 35 / 100
    expect(winnerSentence(picked('no_clear_winner', 0, [31, 35], [100, 100]), 'conversion', words)).toEqual({
      key: 'outcomes.versions.no_clear_winner',
      options: { rates: 'A 31 %, B 35 %', metric: 'conversion rate' },
    });
    expect(winnerSentence(picked('no_data', 0, [0, 0], [0, 0]), 'conversion', words)).toEqual({ key: 'outcomes.versions.no_data', options: {} });
  });

  it('says when the rest gets the best version before the pick, and nothing with one text or nobody waiting', () => {
    const before = { variants: [version(0), version(1)], winner: null, winner_due_at: '2026-11-20T14:00:00Z', waiting: 120 };
    expect(winnerSentence(before, 'open', words)).toMatchObject({ key: 'outcomes.versions.waiting', options: { smart_count: 120, metric: 'open rate' } });
    expect(winnerSentence({ ...before, waiting: 1437 }, 'open', words)?.options).toMatchObject({ count: '1,437' });
    expect(winnerSentence({ ...before, waiting: 0 }, 'open', words)).toBeNull();
    expect(winnerSentence({ variants: [], winner: null, winner_due_at: null, waiting: 0 }, 'open', words)).toBeNull();
  });
});
