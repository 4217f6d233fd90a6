import { describe, expect, it } from 'vitest';
import { cardsState, formatStat } from '../../../src/dashboard/statsRules';
import { labelIndexes, niceStep, shortDate, yTicks, yTicksAround } from '../../../src/dashboard/charts/chartScale';

describe('dashboard card rules (spec §4)', () => {
  it('stays loading before stats arrive', () => {
    expect(cardsState(undefined)).toEqual({ loading: true });
  });

  it('turns loaded with the figures when errors is empty', () => {
    const state = cardsState({ errors: [], result: { subscribers: 523118, daily_plays: 250012, most_popular: 'Yoga' } });
    expect(state).toEqual({ loading: false, values: { subscribers: 523118, daily_plays: 250012, most_popular: 'Yoga' } });
  });

  it('stays loading when errors is not empty, even with figures present', () => {
    const state = cardsState({
      errors: [{ figure: 'most_popular', message: 'No video was played' }],
      result: { subscribers: 10, daily_plays: 0, most_popular: null },
    });
    expect(state).toEqual({ loading: true });
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

  it('labels the first and last point and a few evenly between', () => {
    expect(labelIndexes(30, 5)).toEqual([0, 7, 15, 22, 29]);
    expect(labelIndexes(3, 5)).toEqual([0, 1, 2]);
    expect(labelIndexes(13, 2)).toEqual([0, 12]);
  });

  it('writes short UTC dates', () => {
    expect(shortDate('2026-10-23')).toBe('Oct 23');
    expect(shortDate('2026-11-22T23:30:00.000Z')).toBe('Nov 22');
  });
});
