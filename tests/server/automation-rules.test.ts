import { describe, expect, it } from 'vitest';
import { chooseTemplate, inQuietHours, lastWeekly, nextWeekly, quietHoursEnd } from '../../server/src/automation/rules';
import { localDay, localToInstant } from '../../server/src/lib/localTime';
import { loadConfig } from '../../server/src/config';

const at = (iso: string) => new Date(iso);
const QUIET = { quiet_start: '21:00', quiet_end: '08:00' };

describe('quiet hours', () => {
  it('wrap midnight in the studio time zone', () => {
    expect(inQuietHours(at('2026-11-23T20:59:00Z'), QUIET, 'UTC')).toBe(false);
    expect(inQuietHours(at('2026-11-23T21:00:00Z'), QUIET, 'UTC')).toBe(true);
    expect(inQuietHours(at('2026-11-24T07:59:00Z'), QUIET, 'UTC')).toBe(true);
    expect(inQuietHours(at('2026-11-24T08:00:00Z'), QUIET, 'UTC')).toBe(false);
    // 21:30 UTC is 16:30 in New York: not quiet there; 03:00 UTC is 22:00 there: quiet.
    expect(inQuietHours(at('2026-11-23T21:30:00Z'), QUIET, 'America/New_York')).toBe(false);
    expect(inQuietHours(at('2026-11-24T03:00:00Z'), QUIET, 'America/New_York')).toBe(true);
  });

  it('can lie within one day, or be switched off by equal times', () => {
    expect(inQuietHours(at('2026-11-23T13:00:00Z'), { quiet_start: '12:00', quiet_end: '14:00' }, 'UTC')).toBe(true);
    expect(inQuietHours(at('2026-11-23T14:00:00Z'), { quiet_start: '12:00', quiet_end: '14:00' }, 'UTC')).toBe(false);
    expect(inQuietHours(at('2026-11-23T23:00:00Z'), { quiet_start: '00:00', quiet_end: '00:00' }, 'UTC')).toBe(false);
  });

  it('end at the next quiet_end, the same night or the next morning', () => {
    expect(quietHoursEnd(at('2026-11-23T22:15:00Z'), QUIET, 'UTC').toISOString()).toBe('2026-11-24T08:00:00.000Z');
    expect(quietHoursEnd(at('2026-11-24T05:00:00Z'), QUIET, 'UTC').toISOString()).toBe('2026-11-24T08:00:00.000Z');
    expect(quietHoursEnd(at('2026-11-24T03:00:00Z'), QUIET, 'Europe/Berlin').toISOString()).toBe('2026-11-24T07:00:00.000Z');
  });
});

describe('weekly moments', () => {
  it('find the last and next chosen weekday and time, studio-local', () => {
    // Monday 08:30 in New York is 13:30 UTC in November.
    expect(lastWeekly(at('2026-11-25T12:00:00Z'), 1, '08:30', 'America/New_York').toISOString()).toBe('2026-11-23T13:30:00.000Z');
    expect(lastWeekly(at('2026-11-23T13:30:00Z'), 1, '08:30', 'America/New_York').toISOString()).toBe('2026-11-23T13:30:00.000Z');
    expect(lastWeekly(at('2026-11-23T13:29:00Z'), 1, '08:30', 'America/New_York').toISOString()).toBe('2026-11-16T13:30:00.000Z');
    expect(nextWeekly(at('2026-11-23T13:30:00Z'), 1, '08:30', 'America/New_York').toISOString()).toBe('2026-11-30T13:30:00.000Z');
  });

  it('keep the wall-clock time across a daylight-saving change', () => {
    // Europe/London moves to summer time on 29 March 2026: Sunday 18:00 is 18:00 GMT, then 17:00 UTC.
    expect(nextWeekly(at('2026-03-22T18:00:00Z'), 0, '18:00', 'Europe/London').toISOString()).toBe('2026-03-29T17:00:00.000Z');
    expect(localToInstant(2026, 3, 29, 1, 30, 'Europe/London').toISOString()).toBe('2026-03-29T01:30:00.000Z'); // a skipped time moves on
    expect(localDay(at('2026-11-24T03:00:00Z'), 'America/New_York')).toBe('2026-11-23');
  });
});

describe('template choice', () => {
  const t = (id: number, message = 'Nice class') => ({ id, title: '', message });

  it('rotates through the enabled templates per client', () => {
    const templates = [t(3), t(7), t(9)];
    expect(chooseTemplate(templates, null, { messageType: 2 })?.id).toBe(3);
    expect(chooseTemplate(templates, 3, { messageType: 2 })?.id).toBe(7);
    expect(chooseTemplate(templates, 9, { messageType: 2 })?.id).toBe(3);
    // the previous one was disabled meanwhile: the next one after it
    expect(chooseTemplate(templates, 8, { messageType: 2 })?.id).toBe(9);
    expect(chooseTemplate([], null, { messageType: 2 })).toBeUndefined();
  });

  it('keeps milestone templates ({class_count}) for milestone classes of High Five', () => {
    const templates = [t(1), t(2, 'Class number {class_count}!'), t(3)];
    expect(chooseTemplate(templates, null, { messageType: 1, milestone: true })?.id).toBe(2);
    expect(chooseTemplate(templates, 1, { messageType: 1, milestone: false })?.id).toBe(3);
    expect(chooseTemplate([t(1)], null, { messageType: 1, milestone: true })?.id).toBe(1);
    expect(chooseTemplate([t(2, '{ Class_Count } classes')], null, { messageType: 1, milestone: false })).toBeUndefined();
  });
});

describe('configuration', () => {
  it('validates STUDIO_TIME_ZONE and AUTOMATED_MESSAGES_INTERVAL_MINUTES', () => {
    expect(loadConfig({}).STUDIO_TIME_ZONE).toBe('UTC');
    expect(loadConfig({ STUDIO_TIME_ZONE: 'Europe/Berlin' }).STUDIO_TIME_ZONE).toBe('Europe/Berlin');
    expect(() => loadConfig({ STUDIO_TIME_ZONE: 'Mars/Olympus' })).toThrow(
      "Invalid configuration: STUDIO_TIME_ZONE must be an IANA time zone like 'Europe/London' or 'America/New_York'",
    );
    expect(loadConfig({}).AUTOMATED_MESSAGES_INTERVAL_MINUTES).toBe(5);
    expect(() => loadConfig({ AUTOMATED_MESSAGES_INTERVAL_MINUTES: 'often' })).toThrow(/AUTOMATED_MESSAGES_INTERVAL_MINUTES/);
  });
});
