import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../../src/providers/i18nProvider';
import {
  autopayEntries,
  calendarDay,
  contractDates,
  dateTime,
  day,
  isNewClient,
  mindBodyIdLabel,
  orUnknown,
  terminationDate,
  videoLength,
} from '../../src/common/format';
import { RUNTIME_CONFIG_ELEMENT_ID } from '@contract/searchConfig';

const NOW = new Date('2026-11-22T12:00:00Z');
const DAY = 86_400_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe('isNewClient (30-day window)', () => {
  it('is new exactly 30 days after the first login and not one second later', () => {
    expect(isNewClient(ago(30 * DAY), NOW)).toBe(true);
    expect(isNewClient(ago(30 * DAY + 1000), NOW)).toBe(false);
  });
  it('is new for a first login today and not for none or an unreadable one', () => {
    expect(isNewClient(ago(0), NOW)).toBe(true);
    expect(isNewClient(null, NOW)).toBe(false);
    expect(isNewClient(undefined, NOW)).toBe(false);
    expect(isNewClient('not a date', NOW)).toBe(false);
  });
});

describe('UNKNOWN and N/A', () => {
  it('shows UNKNOWN for missing or blank values and the value otherwise', () => {
    expect(orUnknown(null, 'UNKNOWN')).toBe('UNKNOWN');
    expect(orUnknown(undefined, 'UNKNOWN')).toBe('UNKNOWN');
    expect(orUnknown('  ', 'UNKNOWN')).toBe('UNKNOWN');
    expect(orUnknown('Kim', 'UNKNOWN')).toBe('Kim');
    expect(orUnknown(0, 'UNKNOWN')).toBe('0');
  });
  it('shows N/A for a MindBody id that is missing or 2 characters or shorter', () => {
    expect(mindBodyIdLabel(null, 'N/A')).toBe('N/A');
    expect(mindBodyIdLabel('', 'N/A')).toBe('N/A');
    expect(mindBodyIdLabel('42', 'N/A')).toBe('N/A');
    expect(mindBodyIdLabel('123', 'N/A')).toBe('123');
  });
});

describe('contract dates', () => {
  // Days as Mindbody wrote them, in the console's one date format (not shifted by any time zone).
  it('shows the calendar days of start and end as start - end', () => {
    const dates = contractDates('2026-01-05T00:00:00.000Z', '2027-01-05T00:00:00');
    expect(dates).toEqual({ start: 'Jan 5, 2026', end: 'Jan 5, 2027' });
    expect(i18nProvider.translate('client.sections.contracts.date_range', dates)).toBe('Jan 5, 2026 - Jan 5, 2027');
  });
  it('shows N/A for a contract that was not terminated', () => {
    expect(terminationDate(null, 'N/A')).toBe('N/A');
    expect(terminationDate('2025-06-15T00:00:00.000Z', 'N/A')).toBe('Jun 15, 2025');
  });
});

describe('autopay lines', () => {
  it('shows only the first three events as $amount on date', () => {
    const events = [
      { ChargeAmount: 129, ScheduleDate: '2026-12-01T00:00:00' },
      { ChargeAmount: 129.5, ScheduleDate: '2027-01-01T00:00:00' },
      { ChargeAmount: 59, ScheduleDate: '2027-02-01T00:00:00' },
      { ChargeAmount: 99, ScheduleDate: '2027-03-01T00:00:00' },
    ];
    const lines = autopayEntries(events).map((entry) => i18nProvider.translate('client.sections.contracts.autopay_entry', entry));
    expect(lines).toEqual(['$129 on Dec 1, 2026', '$129.50 on Jan 1, 2027', '$59 on Feb 1, 2027']);
  });
  it('shows nothing for no events', () => {
    expect(autopayEntries([])).toEqual([]);
    expect(autopayEntries(null)).toEqual([]);
  });
});

describe('video length', () => {
  const texts = { underAMinute: '< 1 MINUTE(S)', minutes: (n: number) => `${n} MINUTE(S)` };
  it('shows < 1 MINUTE(S) under 60 seconds', () => {
    expect(videoLength(0, texts)).toBe('< 1 MINUTE(S)');
    expect(videoLength(59, texts)).toBe('< 1 MINUTE(S)');
  });
  it('shows whole minutes, floored, from 60 seconds', () => {
    expect(videoLength(60, texts)).toBe('1 MINUTE(S)');
    expect(videoLength(1499, texts)).toBe('24 MINUTE(S)');
  });
});

describe('date-times', () => {
  it('shows a moment in the given time zone, and nothing for none', () => {
    expect(dateTime('2026-11-22T12:00:00.000Z', 'UTC')).toBe('Nov 22, 2026, 12:00 PM');
    expect(dateTime('2026-11-22T12:00:00.000Z', 'America/New_York')).toBe('Nov 22, 2026, 7:00 AM');
    expect(dateTime(null)).toBe('');
  });
  it("writes a moment's day in the zone, and a calendar day as written whatever the zone", () => {
    // 03:44 UTC on Dec 6 is still Dec 5 in New York.
    expect(day('2026-12-06T03:44:00.000Z', 'UTC')).toBe('Dec 6, 2026');
    expect(day('2026-12-06T03:44:00.000Z', 'America/New_York')).toBe('Dec 5, 2026');
    expect(calendarDay('2026-12-06')).toBe('Dec 6, 2026');
    expect(calendarDay('2026-12-06T23:30:00-08:00')).toBe('Dec 6, 2026');
    expect(day(null)).toBe('');
    expect(calendarDay(undefined)).toBe('');
  });
  it("uses the studio's time zone the server put into the page", async () => {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = RUNTIME_CONFIG_ELEMENT_ID;
    element.textContent = JSON.stringify({ time_zone: 'Asia/Tokyo' });
    document.head.append(element);
    try {
      const format = await import('../../src/common/format');
      expect(format.studioTimeZone()).toBe('Asia/Tokyo');
      expect(format.dateTime('2026-11-22T12:00:00.000Z')).toBe('Nov 22, 2026, 9:00 PM');
      expect(format.day('2026-11-22T20:00:00.000Z')).toBe('Nov 23, 2026');
    } finally {
      element.remove();
    }
  });
});
