import { describe, expect, it } from 'vitest';
import { averagePerDay, fillPlaysWindow, playsWindow, weeklyMoments } from '../../server/src/stats/window';

describe('dashboard figure rules', () => {
  it('takes the 30 full UTC days before today, whatever the hour', () => {
    for (const now of ['2026-11-22T00:00:00Z', '2026-11-22T23:59:59.999Z']) {
      const window = playsWindow(new Date(now));
      expect(window.from).toBe('2026-10-23');
      expect(window.to).toBe('2026-11-22');
      expect(window.days).toHaveLength(30);
      expect(window.days[29]).toBe('2026-11-21');
    }
  });

  it('crosses month and year ends and leap days', () => {
    expect(playsWindow(new Date('2028-03-01T10:00:00Z')).from).toBe('2028-01-31');
    expect(playsWindow(new Date('2027-01-05T10:00:00Z')).days.slice(25)).toEqual(['2026-12-31', '2027-01-01', '2027-01-02', '2027-01-03', '2027-01-04']);
  });

  it('averages plays over all 30 days, rounded to a whole play', () => {
    expect(averagePerDay(90)).toBe(3);
    expect(averagePerDay(44)).toBe(1);
    expect(averagePerDay(45)).toBe(2);
    expect(averagePerDay(0)).toBe(0);
  });

  it('fills days without plays with 0, keeping the window order', () => {
    const { days } = playsWindow(new Date('2026-11-22T12:00:00Z'));
    const points = fillPlaysWindow(days, [
      { day: '2026-11-21', plays: 7 },
      { day: '2026-10-23', plays: 2 },
    ]);
    expect(points).toHaveLength(30);
    expect(points[0]).toEqual({ day: '2026-10-23', plays: 2 });
    expect(points[1]).toEqual({ day: '2026-10-24', plays: 0 });
    expect(points[29]).toEqual({ day: '2026-11-21', plays: 7 });
  });

  it('steps back a week at a time for 12 weeks, ending at now', () => {
    const moments = weeklyMoments(new Date('2026-11-22T12:00:00Z'));
    expect(moments).toHaveLength(13);
    expect(moments[0]!.toISOString()).toBe('2026-08-30T12:00:00.000Z');
    expect(moments[12]!.toISOString()).toBe('2026-11-22T12:00:00.000Z');
  });
});
