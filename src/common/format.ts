import type { AutopayEvent } from '@contract/clients';
import { DAY_MS, NEW_CLIENT_WINDOW_DAYS, hasMindBodyId } from '@contract/clientRules';
import { readRuntimeConfig } from '../providers/config';

/** 'New' while the first login is at most 30 days old (the server's New list uses the same instant). */
export function isNewClient(firstLogin: string | null | undefined, now: Date): boolean {
  if (!firstLogin) return false;
  const at = Date.parse(firstLogin);
  return !Number.isNaN(at) && at >= now.getTime() - NEW_CLIENT_WINDOW_DAYS * DAY_MS;
}

/** The value, or the UNKNOWN text when there is none to show. */
export function orUnknown(value: string | number | null | undefined, unknown: string): string {
  if (value === null || value === undefined) return unknown;
  const text = String(value).trim();
  return text === '' ? unknown : text;
}

/** The MindBody id, or N/A when missing or 2 characters or shorter. */
export const mindBodyIdLabel = (id: string | null | undefined, notAvailable: string) => (hasMindBodyId(id) ? id : notAvailable);

/**
 * One way to write dates and times across the console: in the studio's time zone (STUDIO_TIME_ZONE,
 * which the server puts into the page; the browser's zone without it) and the browser's locale
 * ('Dec 6, 2026' and 'Dec 6, 2026, 3:44 AM' in English).
 */
const formats = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'day' | 'moment', timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = kind === 'day' ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' };
    try {
      format = new Intl.DateTimeFormat(undefined, { ...options, timeZone });
    } catch {
      // A zone this browser does not know: its own zone rather than no date at all.
      format = new Intl.DateTimeFormat(undefined, options);
    }
    formats.set(key, format);
  }
  return format;
}

/** The studio's time zone from the page (undefined: the browser's), read where the page keeps it on each call. */
export function studioTimeZone(): string | undefined {
  return readRuntimeConfig().time_zone ?? undefined;
}

/** A calendar date as written (a contract's day, 'YYYY-MM-DD…'): 'Jan 5, 2026', whatever the zone; '' for none. */
export function calendarDay(value: string | null | undefined): string {
  const match = value ? /^(\d{4})-(\d{2})-(\d{2})/.exec(value) : null;
  if (!match) return value ?? '';
  return formatter('day', 'UTC').format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))));
}

/** The day of a moment in the studio's zone: 'Dec 6, 2026'; '' for none. */
export function day(value: string | null | undefined, timeZone: string | undefined = studioTimeZone()): string {
  if (!value) return '';
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? value : formatter('day', timeZone).format(at);
}

/** Contract Date column: start and end as calendar days (shown as 'start - end'). */
export const contractDates = (start: string | null | undefined, end: string | null | undefined) => ({ start: calendarDay(start), end: calendarDay(end) });

/** Termination Date column: the date, or N/A when the contract was not terminated. */
export const terminationDate = (value: string | null | undefined, notAvailable: string) => (value ? calendarDay(value) : notAvailable);

export const AUTOPAY_EVENTS_SHOWN = 3;

/** An amount as '129' when whole, '129.50' otherwise. */
export const moneyAmount = (amount: number) => (Number.isInteger(amount) ? String(amount) : amount.toFixed(2));

/** Upcoming AutoPay Dates column: the first three events, each shown as '$amount on date'. */
export const autopayEntries = (events: AutopayEvent[] | null | undefined) =>
  (events ?? []).slice(0, AUTOPAY_EVENTS_SHOWN).map((event) => ({ amount: moneyAmount(event.ChargeAmount), date: calendarDay(event.ScheduleDate) }));

/** A moment for staff to read, in the studio's time zone: 'Nov 22, 2026, 12:00 PM'; '' for none. */
export function dateTime(value: string | null | undefined, timeZone: string | undefined = studioTimeZone()): string {
  if (!value) return '';
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  return formatter('moment', timeZone).format(at);
}

/** Under 60 seconds the 'under a minute' text, otherwise whole minutes (floored). */
export function videoLength(seconds: number, texts: { underAMinute: string; minutes: (count: number) => string }): string {
  return seconds < 60 ? texts.underAMinute : texts.minutes(Math.floor(seconds / 60));
}

/** Width and height as '1179 x 2556'; '' when either is missing. */
export const sizeLabel = (width: number | null | undefined, height: number | null | undefined) =>
  width == null || height == null ? '' : `${width} x ${height}`;

/** Free-form device data as indented JSON for reading. */
export const formattedData = (value: unknown) => (value === undefined || value === null ? '' : JSON.stringify(value, null, 2));
