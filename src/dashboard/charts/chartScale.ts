/** Small, pure helpers for the dashboard's SVG charts. */

/** A "nice" step (1, 2 or 5 times a power of ten) at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return Math.max(1, nice * power);
}

/** Y-axis ticks from 0 up to at least `max`, about `count` steps, whole numbers. */
export function yTicks(max: number, count = 4): number[] {
  const step = niceStep(Math.ceil(max) / count);
  const top = Math.max(step, Math.ceil(max / step) * step);
  return Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
}

/** Y ticks for values that sit far from 0 (a subscriber count): the range around them, not from 0. */
export function yTicksAround(min: number, max: number, count = 4): number[] {
  if (max - min < 1) {
    const step = niceStep(Math.max(1, Math.abs(max) * 0.05));
    const bottom = Math.max(0, Math.floor(min / step) * step - step);
    return [bottom, bottom + step, bottom + 2 * step];
  }
  const step = niceStep((max - min) / count);
  const bottom = Math.max(0, Math.floor(min / step) * step);
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: Math.round((top - bottom) / step) + 1 }, (_, i) => bottom + i * step);
}

/**
 * Indexes of `length` points to label on the x axis, at most `most`, evenly spaced: every `step`
 * points, counted back from the newest point (always labelled), with `step` the first of `steps`
 * that fits (days: 1, 2, a week, two, four). Rounding an even spread instead gives gaps of 7 and 8 days.
 */
export function labelIndexes(length: number, most: number, steps: readonly number[] = [1, 2, 7, 14, 28]): number[] {
  if (length <= 0) return [];
  const fits = (step: number) => Math.floor((length - 1) / step) + 1 <= Math.max(1, most);
  const step = steps.find(fits) ?? Math.ceil((length - 1) / Math.max(1, most - 1));
  const indexes: number[] = [];
  for (let index = length - 1; index >= 0; index -= step) indexes.unshift(index);
  return indexes;
}

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** 'Oct 23' for '2026-10-23' or an ISO moment (UTC, like the figures). */
export function shortDate(isoDayOrMoment: string): string {
  return dayFormat.format(new Date(isoDayOrMoment.length === 10 ? `${isoDayOrMoment}T00:00:00Z` : isoDayOrMoment));
}
