/** Pure rules of the client "at a glance" header. */

/** Statuses whose subscription goes on by itself at its expiry: the header says "renews", else "ends". */
const RENEWING = new Set(['active', 'trial', 'trialing', 'in_trial', 'renewed']);
export const planRenews = (status: string | null) => status !== null && RENEWING.has(status.toLowerCase());

/** The app platforms as staff read them: an iPad apart from an iPhone, each once, in a stable order. */
export function platformsOf(devices: readonly { platform: string | null; is_ipad: boolean | null }[]): string[] {
  const names = devices.map((device) => (device.is_ipad ? 'ipad' : (device.platform ?? '').trim().toLowerCase())).filter((name) => name !== '');
  return [...new Set(names)].sort();
}

/** Whole days from `from` to `now` (floored; 0 on the same 24 hours, never negative). */
export function wholeDaysBetween(from: string, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - Date.parse(from)) / 86_400_000));
}
