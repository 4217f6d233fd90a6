import { describe, expect, it } from 'vitest';
import { cardsState, formatStat } from '../../../src/dashboard/statsRules';
import { labelIndexes, niceStep, shortDate, yTicks, yTicksAround } from '../../../src/dashboard/charts/chartScale';

describe('dashboard card rules (spec §4)', () => {
  const loading = { state: 'loading' };
  it('stays loading before stats arrive', () => {
    expect(cardsState({ data: undefined, error: null })).toEqual({ subscribers: loading, daily_plays: loading, most_popular: loading });
  });

  it('turns loaded with the figures when errors is empty', () => {
    const state = cardsState({ data: { errors: [], result: { subscribers: 523118, daily_plays: 250012, most_popular: 'Yoga' } }, error: null });
    expect(state).toEqual({
      subscribers: { state: 'loaded', value: 523118 },
      daily_plays: { state: 'loaded', value: 250012 },
      most_popular: { state: 'loaded', value: 'Yoga' },
    });
  });

  it('fails the figures the errors name, with their reason, and shows the others', () => {
    const state = cardsState({
      data: { errors: [{ figure: 'most_popular', message: 'No video was played' }], result: { subscribers: 10, daily_plays: 0, most_popular: null } },
      error: null,
    });
    expect(state).toEqual({
      subscribers: { state: 'loaded', value: 10 },
      daily_plays: { state: 'loaded', value: 0 },
      most_popular: { state: 'failed', reason: 'No video was played' },
    });
  });

  it('fails a figure that came back null without an error naming it', () => {
    const state = cardsState({ data: { errors: [], result: { subscribers: null, daily_plays: 1, most_popular: 'Yoga' } }, error: null });
    expect(state.subscribers).toEqual({ state: 'failed' });
  });

  it('fails every figure once the call failed, even with figures from an earlier answer', () => {
    const earlier = { errors: [], result: { subscribers: 1, daily_plays: 1, most_popular: 'Yoga' } };
    expect(cardsState({ data: earlier, error: new Error('down') })).toEqual({
      subscribers: { state: 'failed' },
      daily_plays: { state: 'failed' },
      most_popular: { state: 'failed' },
    });
  });

  it('formats numbers with thousands separators and leaves names alone', () => {
    expect(formatStat(71887)).toBe('71,887');
    expect(formatStat(1234567)).toBe('1,234,567');
    expect(formatStat(150)).toBe('150');
    expect(formatStat('Warm-up')).toBe('Warm-up');
  });
});

describe('chart scales', () => {
  it('picks 1-2-5 steps', () => {
    expect(niceStep(0.3)).toBe(1);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(17)).toBe(20);
    expect(niceStep(430)).toBe(500);
  });

  it('runs bar ticks from 0 past the largest value', () => {
    expect(yTicks(9)).toEqual([0, 5, 10]);
    expect(yTicks(250_012)).toEqual([0, 100_000, 200_000, 300_000]);
    expect(yTicks(1)).toEqual([0, 1]);
  });

  it('fits line ticks around the values, never below 0', () => {
    expect(yTicksAround(480_000, 523_118)).toEqual([480_000, 500_000, 520_000, 540_000]);
    expect(yTicksAround(5, 5)).toEqual([4, 5, 6]);
    expect(yTicksAround(0, 0)).toEqual([0, 1, 2]);
  });

  it('labels the newest point and others at one even step back from it (a week for 30 days)', () => {
    expect(labelIndexes(30, 5)).toEqual([1, 8, 15, 22, 29]);
    expect(labelIndexes(30, 3)).toEqual([1, 15, 29]);
    expect(labelIndexes(3, 5)).toEqual([0, 1, 2]);
    // Weekly points: every 4 weeks.
    expect(labelIndexes(13, 4, [1, 2, 4, 8])).toEqual([0, 4, 8, 12]);
    expect(labelIndexes(13, 2, [1, 2, 4, 8])).toEqual([4, 12]);
    for (const [length, most] of [
      [30, 4],
      [30, 8],
      [31, 6],
      [90, 5],
      [7, 2],
    ] as const) {
      const indexes = labelIndexes(length, most);
      const gaps = new Set(indexes.slice(1).map((index, i) => index - indexes[i]!));
      expect(gaps.size, `${length} points, ${most} labels`).toBeLessThanOrEqual(1);
      expect(indexes.length).toBeLessThanOrEqual(most);
      expect(indexes.at(-1)).toBe(length - 1);
    }
  });

  it('writes short UTC dates', () => {
    expect(shortDate('2026-10-23')).toBe('Oct 23');
    expect(shortDate('2026-11-22T23:30:00.000Z')).toBe('Nov 22');
  });
});
