import { addLocalDays, localParts, localToInstant, parseHhmm } from '../lib/localTime';

/** Business rules of automated messages, as pure functions (tests/server/automation-rules.test.ts). */

export interface QuietHours {
  quiet_start: string;
  quiet_end: string;
}

const minutesOf = (hhmm: string) => {
  const { hour, minute } = parseHhmm(hhmm);
  return hour * 60 + minute;
};

/** Inside quiet hours (studio-local); a window may wrap midnight (21:00-08:00); start = end means none. */
export function inQuietHours(now: Date, quiet: QuietHours, timeZone: string): boolean {
  const start = minutesOf(quiet.quiet_start);
  const end = minutesOf(quiet.quiet_end);
  if (start === end) return false;
  const p = localParts(now, timeZone);
  const m = p.hour * 60 + p.minute;
  return start < end ? m >= start && m < end : m >= start || m < end;
}

/** When the quiet hours that `now` is in end: the next studio-local quiet_end. */
export function quietHoursEnd(now: Date, quiet: QuietHours, timeZone: string): Date {
  const p = localParts(now, timeZone);
  const { hour, minute } = parseHhmm(quiet.quiet_end);
  const today = localToInstant(p.year, p.month, p.day, hour, minute, timeZone);
  if (today.getTime() > now.getTime()) return today;
  const next = addLocalDays(p, 1);
  return localToInstant(next.year, next.month, next.day, hour, minute, timeZone);
}

/** The latest weekly moment (weekday at hh:mm, studio-local) at or before `now`. */
export function lastWeekly(now: Date, weekday: number, time: string, timeZone: string): Date {
  const p = localParts(now, timeZone);
  const { hour, minute } = parseHhmm(time);
  const back = (p.weekday - weekday + 7) % 7;
  const day = addLocalDays(p, -back);
  const candidate = localToInstant(day.year, day.month, day.day, hour, minute, timeZone);
  if (candidate.getTime() <= now.getTime()) return candidate;
  const earlier = addLocalDays(day, -7);
  return localToInstant(earlier.year, earlier.month, earlier.day, hour, minute, timeZone);
}

/** The first weekly moment strictly after `now`. */
export function nextWeekly(now: Date, weekday: number, time: string, timeZone: string): Date {
  const last = lastWeekly(now, weekday, time, timeZone);
  const p = localParts(last, timeZone);
  const day = addLocalDays(p, 7);
  return localToInstant(day.year, day.month, day.day, p.hour, p.minute, timeZone);
}

export interface TemplateChoice {
  id: number;
  title: string;
  message: string;
}

/** High Five templates that mention {class_count} are the milestone ones. */
export const isMilestoneTemplate = (template: TemplateChoice) => /\{\s*class_count\s*\}/i.test(`${template.title} ${template.message}`);

/**
 * The template for one push. Only enabled templates are passed in (sorted by id). They rotate per
 * client: the one after the client's previous template of this type, so with two or more enabled
 * nobody gets the same text twice in a row. For High Five, milestone classes use the milestone
 * templates when any is enabled, and ordinary classes never get them.
 */
export function chooseTemplate<T extends TemplateChoice>(
  enabled: T[],
  previousId: number | null,
  options: { messageType: number; milestone?: boolean },
): T | undefined {
  let pool = enabled;
  if (options.messageType === 1) {
    const milestoneTemplates = enabled.filter(isMilestoneTemplate);
    const ordinary = enabled.filter((t) => !isMilestoneTemplate(t));
    pool = options.milestone && milestoneTemplates.length > 0 ? milestoneTemplates : ordinary;
  }
  if (pool.length === 0) return undefined;
  const sorted = [...pool].sort((a, b) => a.id - b.id);
  if (previousId === null) return sorted[0];
  return sorted.find((t) => t.id > previousId) ?? sorted[0];
}

/**
 * A failed send is tried this many times in all, waiting 1, 2, 4 minutes (±20 %) between tries and
 * never less than FCM's Retry-After: the job queue's back-off (server/src/jobs/job.ts) with this base.
 */
export const MAX_SEND_ATTEMPTS = 4;
export const SEND_RETRY_BASE_MS = 60_000;

/** A push that could not go out within this long of its moment is dropped as 'expired' (after an outage). */
export const STALE_AFTER_MS = 24 * 60 * 60_000;
