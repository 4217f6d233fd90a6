/** Pure rules of the overrides staff manage. */

/** A grant extends the running override when it keeps its level and ends later. */
export function isExtension(running: { level: number | null; until: Date | null }, grant: { level: number; until: Date }, now: Date): boolean {
  if (running.until === null || running.until.getTime() <= now.getTime()) return false;
  return running.level !== null && Number(running.level) === grant.level && grant.until.getTime() > running.until.getTime();
}

/** "Ending within N days": overrides running now whose end falls before now + N days. */
export function endingWithinBound(now: Date, days: number): Date {
  return new Date(now.getTime() + days * 24 * 60 * 60 * 1000);
}
