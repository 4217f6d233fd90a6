import { createHash } from 'node:crypto';
import { goalReachedBy, type GoalEvent, type GoalKind, type WinnerReason } from '@contract/outcomeRules';

export type { WinnerReason };

const DAY_MS = 86_400_000;
/** The normal distribution's 97.5th percentile: a two-sided 95 % interval. */
const Z95 = 1.959963984540054;
/** Below this many conversions or non-conversions in a group, the normal approximation is not trusted. */
const NORMAL_APPROXIMATION_MIN = 10;

/**
 * When a push's goal was reached: the first goal event at or after the send and before the window
 * closes (`window_days` whole days later), or null.
 */
export function conversionAt(goal: GoalKind, sentAt: Date, windowDays: number, events: readonly { kind: GoalEvent; at: Date }[]): Date | null {
  const start = sentAt.getTime();
  const end = start + windowDays * DAY_MS;
  let first: number | null = null;
  for (const event of events) {
    const at = event.at.getTime();
    if (!goalReachedBy(goal, event.kind) || at < start || at >= end) continue;
    if (first === null || at < first) first = at;
  }
  return first === null ? null : new Date(first);
}

/**
 * A client's reproducible draw in [0, 1) for a seed: the first 32 bits of MD5(seed:client_id).
 * PostgreSQL computes the same number (holdoutDrawSql), so a set-based insert and this function agree.
 */
export function holdoutDraw(seed: string, clientId: number): number {
  const hex = createHash('md5').update(`${seed}:${clientId}`).digest('hex').slice(0, 8);
  return parseInt(hex, 16) / 2 ** 32;
}

/** The SQL twin of holdoutDraw: `seed` and `clientId` are SQL expressions (text and bigint). */
export const holdoutDrawSql = (seed: string, clientId: string) =>
  `(('x' || substr(md5(${seed} || ':' || ${clientId}::text), 1, 8))::bit(32)::bigint::float8 / 4294967296.0)`;

export const isHeldOut = (seed: string, clientId: number, percent: number) => percent > 0 && holdoutDraw(seed, clientId) < percent / 100;

/** The same broadcast always holds out the same clients. */
export const broadcastSeed = (broadcastId: number) => `broadcast:${broadcastId}`;
/** An automated type holds out the same clients for a whole studio week (its Monday, YYYY-MM-DD). */
export const automatedSeed = (messageType: number, week: string) => `automated:${messageType}:${week}`;
/** Variants draw from another seed than the holdout, so who is held out says nothing of the version. */
export const variantSeed = (broadcastId: number) => `variant:${broadcastId}`;

/** The Monday of the week a studio-local day (YYYY-MM-DD) falls in. */
export function weekOf(localDay: string): string {
  const day = new Date(`${localDay}T00:00:00Z`);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

export interface Group {
  clients: number;
  converted: number;
}

export interface Interval {
  difference: number;
  low: number;
  high: number;
  method: 'normal' | 'newcombe';
}

/** Wilson's score interval of one proportion (Newcombe's building block). */
function wilson(converted: number, clients: number): [number, number] {
  const p = converted / clients;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * clients)) / (1 + z2 / clients);
  const half = (Z95 / (1 + z2 / clients)) * Math.sqrt((p * (1 - p)) / clients + z2 / (4 * clients * clients));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

const large = (group: Group) => group.converted >= NORMAL_APPROXIMATION_MIN && group.clients - group.converted >= NORMAL_APPROXIMATION_MIN;

/**
 * The 95 % interval of p1 − p2 for two independent groups. The normal approximation
 * (p1 − p2) ± 1.96·√(p1(1−p1)/n1 + p2(1−p2)/n2) when both groups have at least 10 conversions and
 * 10 non-conversions; otherwise Newcombe's hybrid score interval (Newcombe 1998, method 10), which
 * stays inside [−1, 1] and does not collapse to a point at 0 % or 100 %. Null for an empty group.
 */
export function differenceInterval(first: Group, second: Group): Interval | null {
  if (first.clients === 0 || second.clients === 0) return null;
  const p1 = first.converted / first.clients;
  const p2 = second.converted / second.clients;
  const difference = p1 - p2;
  if (large(first) && large(second)) {
    const half = Z95 * Math.sqrt((p1 * (1 - p1)) / first.clients + (p2 * (1 - p2)) / second.clients);
    return { difference, low: difference - half, high: difference + half, method: 'normal' };
  }
  const [l1, u1] = wilson(first.converted, first.clients);
  const [l2, u2] = wilson(second.converted, second.clients);
  return {
    difference,
    low: difference - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
    high: difference + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2),
    method: 'newcombe',
  };
}

export interface Lift {
  /** About this many more clients converted among those sent to than would have without the message. */
  clients: number;
  low: number;
  high: number;
  /** False while the interval includes zero: "not enough data yet". */
  significant: boolean;
  method: Interval['method'];
}

/** The lift of a message over its holdout, scaled to the clients it was sent to. Null without a holdout. */
export function liftOf(treated: Group, holdout: Group): Lift | null {
  const interval = differenceInterval(treated, holdout);
  if (!interval) return null;
  const scale = (rate: number) => Math.round(rate * treated.clients);
  return {
    clients: scale(interval.difference),
    low: scale(interval.low),
    high: scale(interval.high),
    significant: interval.low > 0 || interval.high < 0,
    method: interval.method,
  };
}

/**
 * The version that goes to the rest: the one with the best rate when it beats every other beyond
 * the 95 % interval of the difference, else the first one.
 */
export function pickWinner(versions: readonly Group[]): { index: number; reason: WinnerReason } {
  if (versions.length === 0 || versions.every((version) => version.clients === 0)) return { index: 0, reason: 'no_data' };
  const rate = (version: Group) => (version.clients === 0 ? -1 : version.converted / version.clients);
  let best = 0;
  versions.forEach((version, index) => {
    if (rate(version) > rate(versions[best]!)) best = index;
  });
  const beatsAll = versions.every((version, index) => index === best || (differenceInterval(versions[best]!, version)?.low ?? 0) > 0);
  return beatsAll ? { index: best, reason: 'better' } : { index: 0, reason: 'no_clear_winner' };
}
