/**
 * When X-RateLimit-Reset says the limit lifts, as epoch milliseconds. Vimeo's docs say a Unix
 * timestamp but public clients parse a date string, so both are read; a small number is taken
 * as seconds from now.
 */
export function parseRateLimitReset(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === '') return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const number = Number(text);
    if (number > 1e12) return number; // already milliseconds
    if (number > 1e9) return number * 1000; // Unix seconds
    return nowMs + number * 1000;
  }
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? null : parsed;
}
