/**
 * Calendar rules both halves share for the Revenue area: UTC days, ISO weeks starting Monday,
 * calendar months. Days are 'YYYY-MM-DD' strings.
 */
export type Interval = 'day' | 'week' | 'month';

const toMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first day of the period `day` falls in. */
export function periodStart(day: string, interval: Interval): string {
  const d = new Date(toMs(day));
  if (interval === 'month') return toDay(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  if (interval === 'week') return toDay(toMs(day) - ((d.getUTCDay() + 6) % 7) * 86_400_000);
  return day;
}

/** The first day of the period after the one starting at `start`. */
export function nextPeriod(start: string, interval: Interval): string {
  const d = new Date(toMs(start));
  if (interval === 'month') return toDay(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  return toDay(toMs(start) + (interval === 'week' ? 7 : 1) * 86_400_000);
}

/** The period starts from the one holding `from` to the one holding `to`. */
export function periodStarts(from: string, to: string, interval: Interval): string[] {
  const out: string[] = [];
  for (let p = periodStart(from, interval); p <= to; p = nextPeriod(p, interval)) out.push(p);
  return out;
}

/** `day` moved back by `count` periods (the default range of a chart). */
export function periodsBack(day: string, interval: Interval, count: number): string {
  let p = periodStart(day, interval);
  for (let i = 0; i < count; i++) {
    const d = new Date(toMs(p));
    if (interval === 'month') p = toDay(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
    else p = toDay(toMs(p) - (interval === 'week' ? 7 : 1) * 86_400_000);
  }
  return p;
}

/** A share as a percentage with one decimal ('41.7 %'), or '–' without a base. */
export const percent = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toFixed(1)} %`);

/** The figures a client list can be narrowed to (the clients behind a number of the Revenue area). */
export const REVENUE_FIGURES = [
  'new',
  'expansion',
  'contraction',
  'churned',
  'reactivated',
  'subscription_ended',
  'trial_started',
  'trial_converted',
  'refund',
  'cancellation',
  'paying',
  'trialing',
  'cohort_paying',
  'cohort_active',
] as const;
export type RevenueFigure = (typeof REVENUE_FIGURES)[number];
/** Figures that hold at an instant (`revenue_from`) rather than over a range. */
export const POINT_FIGURES: readonly RevenueFigure[] = ['paying', 'trialing'];
/** Figures that name a cohort month (`revenue_from`) and a month after it (`revenue_to`). */
export const COHORT_FIGURES: readonly RevenueFigure[] = ['cohort_paying', 'cohort_active'];
