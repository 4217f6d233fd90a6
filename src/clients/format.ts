import type { AutopayEvent } from '@contract/clients';
import { DAY_MS, NEW_CLIENT_WINDOW_DAYS, hasMindBodyId } from '@contract/clientRules';

/** Spec §4: 'New' while the first login is at most 30 days old (the server's New list uses the same instant). */
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

/** Spec §2: the MindBody id, or N/A when missing or 2 characters or shorter. */
export const mindBodyIdLabel = (id: string | null | undefined, notAvailable: string) => (hasMindBodyId(id) ? id : notAvailable);

/** The first 10 characters of a date-time (its calendar date as sent), or '' for none. */
export const dateOnly = (value: string | null | undefined) => (value ? value.slice(0, 10) : '');

/** Contract Date column: start and end, each cut to its first 10 characters (shown as 'start - end'). */
export const contractDates = (start: string | null | undefined, end: string | null | undefined) => ({ start: dateOnly(start), end: dateOnly(end) });

/** Termination Date column: the date, or N/A when the contract was not terminated. */
export const terminationDate = (value: string | null | undefined, notAvailable: string) => (value ? dateOnly(value) : notAvailable);

export const AUTOPAY_EVENTS_SHOWN = 3;

/** An amount as '129' when whole, '129.50' otherwise. */
export const moneyAmount = (amount: number) => (Number.isInteger(amount) ? String(amount) : amount.toFixed(2));

/** Upcoming AutoPay Dates column: the first three events (spec §9), each shown as '$amount on date'. */
export const autopayEntries = (events: AutopayEvent[] | null | undefined) =>
  (events ?? []).slice(0, AUTOPAY_EVENTS_SHOWN).map((event) => ({ amount: moneyAmount(event.ChargeAmount), date: dateOnly(event.ScheduleDate) }));

/** A moment for staff to read, in their time zone: 'Nov 22, 2026, 12:00 PM'; '' for none. */
export function dateTime(value: string | null | undefined, timeZone?: string): string {
  if (!value) return '';
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
}

/** Spec §5: under 60 seconds the 'under a minute' text, otherwise whole minutes (floored). */
export function videoLength(seconds: number, texts: { underAMinute: string; minutes: (count: number) => string }): string {
  return seconds < 60 ? texts.underAMinute : texts.minutes(Math.floor(seconds / 60));
}

/** Width and height as '1179 x 2556'; '' when either is missing. */
export const sizeLabel = (width: number | null | undefined, height: number | null | undefined) =>
  width == null || height == null ? '' : `${width} x ${height}`;

/** Free-form device data as indented JSON for reading. */
export const formattedData = (value: unknown) => (value === undefined || value === null ? '' : JSON.stringify(value, null, 2));
