import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GOAL_KINDS, type GoalEvent } from '@contract/outcomeRules';
import {
  automatedSeed,
  broadcastSeed,
  conversionAt,
  differenceInterval,
  holdoutDraw,
  isHeldOut,
  liftOf,
  pickWinner,
  weekOf,
} from '../../server/src/outcomes/rules';

const DAY = 86_400_000;
const SENT = new Date('2026-11-02T10:00:00Z');

/** A small seeded generator: the histories are the same on every run. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('conversion within the window after a push', () => {
  it('counts the first goal event in [sent, sent + window) of generated histories', () => {
    const random = generator(7);
    const kinds: GoalEvent[] = ['class', 'stream', 'purchase'];
    for (let history = 0; history < 300; history++) {
      const windowDays = 1 + Math.floor(random() * 30);
      const events = Array.from({ length: Math.floor(random() * 6) }, () => ({
        kind: kinds[Math.floor(random() * 3)]!,
        // from 3 days before the send to 33 days after, on whole hours
        at: new Date(SENT.getTime() + Math.round((random() * 36 - 3) * 24) * 3_600_000),
      }));
      for (const goal of GOAL_KINDS) {
        // Independently: keep the events of the goal inside the window, sort them, take the first.
        const inside = events
          .filter((event) => goal === 'any' || event.kind === goal)
          .map((event) => event.at.getTime() - SENT.getTime())
          .filter((offset) => offset >= 0 && offset < windowDays * DAY)
          .sort((a, b) => a - b);
        const expected = inside.length ? new Date(SENT.getTime() + inside[0]!) : null;
        expect(conversionAt(goal, SENT, windowDays, events)).toEqual(expected);
      }
    }
  });

  it('includes the moment of sending and excludes the moment the window closes', () => {
    const at = (ms: number) => [{ kind: 'class' as const, at: new Date(SENT.getTime() + ms) }];
    expect(conversionAt('class', SENT, 7, at(0))).toEqual(SENT);
    expect(conversionAt('class', SENT, 7, at(7 * DAY))).toBeNull();
    expect(conversionAt('class', SENT, 7, at(7 * DAY - 1))).not.toBeNull();
    expect(conversionAt('class', SENT, 7, at(-1))).toBeNull();
    expect(conversionAt('stream', SENT, 7, at(DAY))).toBeNull();
  });
});

describe('holdout selection', () => {
  it('is MD5(seed:client id) read as a 32-bit fraction, the same on every call', () => {
    const expected = parseInt(createHash('md5').update('broadcast:12:345').digest('hex').slice(0, 8), 16) / 4294967296;
    expect(holdoutDraw(broadcastSeed(12), 345)).toBe(expected);
    expect(holdoutDraw(broadcastSeed(12), 345)).toBe(holdoutDraw('broadcast:12', 345));
    expect(holdoutDraw(broadcastSeed(13), 345)).not.toBe(expected);
  });

  it('holds out about the share asked, and the same clients each time', () => {
    const ids = Array.from({ length: 20_000 }, (_, index) => index + 1);
    for (const percent of [0, 10, 20, 50]) {
      const held = ids.filter((id) => isHeldOut(broadcastSeed(99), id, percent));
      // within four standard deviations of the binomial count
      const mean = (ids.length * percent) / 100;
      const sd = Math.sqrt(mean * (1 - percent / 100));
      expect(Math.abs(held.length - mean)).toBeLessThanOrEqual(4 * sd + 0.5);
      expect(ids.filter((id) => isHeldOut(broadcastSeed(99), id, percent))).toEqual(held);
    }
    // A larger share keeps everyone a smaller one held out.
    const ten = ids.filter((id) => isHeldOut(broadcastSeed(5), id, 10));
    expect(ten.every((id) => isHeldOut(broadcastSeed(5), id, 30))).toBe(true);
  });

  it('gives automated types a seed per type and studio week (weeks start on Monday)', () => {
    expect(weekOf('2026-11-02')).toBe('2026-11-02');
    expect(weekOf('2026-11-08')).toBe('2026-11-02');
    expect(weekOf('2026-11-09')).toBe('2026-11-09');
    expect(weekOf('2027-01-01')).toBe('2026-12-28');
    expect(automatedSeed(3, '2026-11-02')).toBe('automated:3:2026-11-02');
  });
});

describe('lift and its 95 % interval', () => {
  it('uses the normal approximation with enough conversions (worked by hand)', () => {
    // p1 = 120/400 = 0.3, p2 = 20/100 = 0.2; se = sqrt(0.3·0.7/400 + 0.2·0.8/100) = sqrt(0.002125) = 0.0460977
    // half-width 1.96 · se = 0.0903515: interval 0.0096485 .. 0.1903515
    const interval = differenceInterval({ clients: 400, converted: 120 }, { clients: 100, converted: 20 })!;
    expect(interval.method).toBe('normal');
    expect(interval.difference).toBeCloseTo(0.1, 10);
    expect(interval.low).toBeCloseTo(0.0096485, 5);
    expect(interval.high).toBeCloseTo(0.1903515, 5);
    // scaled to the 400 clients sent to: 40 more, between 3.86 and 76.14
    expect(liftOf({ clients: 400, converted: 120 }, { clients: 100, converted: 20 })).toEqual({
      clients: 40,
      low: 4,
      high: 76,
      significant: true,
      method: 'normal',
    });
  });

  it("uses Newcombe's hybrid score interval for small counts (his published examples)", () => {
    // Newcombe (1998), Statistics in Medicine 17:873-890, table II, method 10.
    const cases: [number, number, number, number, number, number][] = [
      [9, 10, 3, 10, 0.1705, 0.809],
      [5, 56, 0, 29, -0.0381, 0.1926],
      [0, 10, 0, 20, -0.1611, 0.2775],
      [0, 10, 0, 10, -0.2775, 0.2775],
    ];
    for (const [x1, n1, x2, n2, low, high] of cases) {
      const interval = differenceInterval({ clients: n1, converted: x1 }, { clients: n2, converted: x2 })!;
      expect(interval.method).toBe('newcombe');
      expect(interval.low).toBeCloseTo(low, 3);
      expect(interval.high).toBeCloseTo(high, 3);
    }
  });

  it('says "not enough data" while the interval includes zero, and nothing without a holdout', () => {
    const lift = liftOf({ clients: 200, converted: 30 }, { clients: 50, converted: 6 })!;
    expect(lift.low).toBeLessThan(0);
    expect(lift.high).toBeGreaterThan(0);
    expect(lift.significant).toBe(false);
    expect(liftOf({ clients: 200, converted: 30 }, { clients: 0, converted: 0 })).toBeNull();
    const fewer = liftOf({ clients: 1000, converted: 100 }, { clients: 1000, converted: 300 })!;
    expect(fewer.significant).toBe(true);
    expect(fewer.clients).toBe(-200);
  });

  it('checks the interval on generated groups against the formula computed here', () => {
    const random = generator(11);
    for (let round = 0; round < 200; round++) {
      const n1 = 40 + Math.floor(random() * 2000);
      const n2 = 40 + Math.floor(random() * 500);
      const x1 = 10 + Math.floor(random() * (n1 - 20));
      const x2 = 10 + Math.floor(random() * (n2 - 20));
      const p1 = x1 / n1;
      const p2 = x2 / n2;
      const half = 1.96 * Math.sqrt((p1 * (1 - p1)) / n1 + (p2 * (1 - p2)) / n2);
      const lift = liftOf({ clients: n1, converted: x1 }, { clients: n2, converted: x2 })!;
      expect(lift.clients).toBe(Math.round((p1 - p2) * n1));
      expect(Math.abs(lift.low - (p1 - p2 - half) * n1)).toBeLessThanOrEqual(0.5 + n1 * 1e-4);
      expect(Math.abs(lift.high - (p1 - p2 + half) * n1)).toBeLessThanOrEqual(0.5 + n1 * 1e-4);
      expect(lift.significant).toBe(p1 - p2 - half > 0 || p1 - p2 + half < 0);
    }
  });
});

describe('variant winner', () => {
  it('picks the best version only when it is better beyond the interval, else the first', () => {
    expect(
      pickWinner([
        { clients: 500, converted: 50 },
        { clients: 500, converted: 100 },
      ]),
    ).toEqual({ index: 1, reason: 'better' });
    expect(
      pickWinner([
        { clients: 50, converted: 5 },
        { clients: 50, converted: 7 },
      ]),
    ).toEqual({ index: 0, reason: 'no_clear_winner' });
    expect(
      pickWinner([
        { clients: 0, converted: 0 },
        { clients: 0, converted: 0 },
      ]),
    ).toEqual({ index: 0, reason: 'no_data' });
    // better than one but not the other: no clear winner
    expect(
      pickWinner([
        { clients: 500, converted: 50 },
        { clients: 500, converted: 95 },
        { clients: 500, converted: 100 },
      ]),
    ).toEqual({ index: 0, reason: 'no_clear_winner' });
  });
});
