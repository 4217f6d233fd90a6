/** Business rules of the dashboard figures, kept free of the database so they can be unit-tested. */

export const PLAYS_WINDOW_DAYS = 30;
export const SUBSCRIBER_TREND_WEEKS = 12;

const DAY_MS = 86_400_000;

export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export function startOfUtcDay(date: Date): Date {
  return new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
}

/**
 * The last 30 full UTC days before `now`'s day: today is still running, so it is left out.
 * `from` is the first day, `to` the day after the last (today); `days` lists all 30, oldest first.
 */
export function playsWindow(now: Date, length = PLAYS_WINDOW_DAYS): { from: string; to: string; days: string[] } {
  const today = startOfUtcDay(now).getTime();
  const days = Array.from({ length }, (_, i) => isoDay(new Date(today - (length - i) * DAY_MS)));
  return { from: days[0]!, to: isoDay(new Date(today)), days };
}

/** Average plays per day, rounded to a whole play (the card shows whole numbers). */
export function averagePerDay(totalPlays: number, days = PLAYS_WINDOW_DAYS): number {
  return Math.round(totalPlays / days);
}

/** Every day of the window with its plays, 0 for days nobody played anything. */
export function fillPlaysWindow(days: string[], rows: { day: string; plays: number }[]): { day: string; plays: number }[] {
  const byDay = new Map(rows.map((row) => [row.day, Number(row.plays)]));
  return days.map((day) => ({ day, plays: byDay.get(day) ?? 0 }));
}

/** `now` and the same moment 1..weeks weeks before, oldest first. */
export function weeklyMoments(now: Date, weeks = SUBSCRIBER_TREND_WEEKS): Date[] {
  return Array.from({ length: weeks + 1 }, (_, i) => new Date(now.getTime() - (weeks - i) * 7 * DAY_MS));
}
