import { OVERRIDE_DAYS, OVERRIDE_MAX_DAYS_DEFAULT, overrideEnd } from '@contract/clientRules';

/** The level modal's duration: one of the spec's day choices, or a custom end date. */
export type OverrideDuration = (typeof OVERRIDE_DAYS)[number] | 'custom';

const DAY_MS = 24 * 60 * 60 * 1000;
const pad = (value: number) => String(value).padStart(2, '0');

/** A date as the browser's local calendar day, YYYY-MM-DD (what a date input holds). */
export const localDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/**
 * A custom end: that local day at the current time of day, so the last allowed day is exactly
 * `maxDays` from now. Null for anything that is not a YYYY-MM-DD day.
 */
export function customOverrideEnd(day: string, now: Date): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const end = new Date(now);
  end.setFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return localDay(end) === day ? end : null;
}

/** The days a custom end may take: from tomorrow (or the day after a running override's end, to extend) to `maxDays` ahead. */
export function customDayBounds(now: Date, maxDays: number, after: Date | null = null): { min: string; max: string } {
  const first = after && after.getTime() > now.getTime() ? new Date(after.getTime() + DAY_MS) : new Date(now.getTime() + DAY_MS);
  return { min: localDay(first), max: localDay(new Date(now.getTime() + maxDays * DAY_MS)) };
}

/** What Save sends: the chosen end, or null while a custom day is missing or out of bounds. */
export function chosenOverrideEnd(duration: OverrideDuration, day: string, now: Date, bounds: { min: string; max: string }): Date | null {
  if (duration !== 'custom') return overrideEnd(duration, now);
  if (day < bounds.min || day > bounds.max) return null;
  return customOverrideEnd(day, now);
}

/** The server's OVERRIDE_MAX_DAYS as the levels call reports it (an older server: the default). */
export const maxOverrideDays = (reported: number | undefined) => reported ?? OVERRIDE_MAX_DAYS_DEFAULT;
