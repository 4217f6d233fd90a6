import { isIPv4, isIPv6 } from 'node:net';

/**
 * Sign-in throttling rules (docs/security-signin.md). Counted are attempts whose password was (or
 * is being) checked; there is deliberately no limit per account alone, so that nobody can lock a
 * staff member out from an address that is not theirs.
 */
export const SIGN_IN_LIMITS = {
  windowMs: 3 * 60_000,
  perAccountAndAddress: 10,
  /** Across all e-mails: one address cannot spray many accounts. */
  perAddress: 50,
} as const;

export type LimitReached = 'account and address' | 'address';

export interface CountedAttempt {
  email: string;
  at: Date;
}

export type ThrottleVerdict =
  { allowed: true; /** Set when this attempt used the last try of a limit. */ limitReached: LimitReached | null } | { allowed: false; retryAfterMs: number };

/** The key sign-in attempts are counted under: the spelling `findStaffByEmail` looks up. */
export function accountKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The key an address is counted under. One IPv6 host usually holds a whole /64, so its addresses
 * count as one; an IPv4 address counts the same in its IPv6-mapped spelling (dual-stack sockets).
 */
export function addressKey(ip: string): string {
  const address = ip.trim().replace(/%.*$/, '');
  if (isIPv4(address)) return address;
  const groups = isIPv6(address) ? ipv6Groups(address) : null;
  if (!groups) return address.toLowerCase();
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (with `::` and a trailing dotted IPv4 expanded). */
function ipv6Groups(address: string): number[] {
  const toGroups = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((piece) => {
          if (!piece.includes('.')) return [parseInt(piece, 16)];
          const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.split('::');
  const front = toGroups(head);
  const back = tail === undefined ? [] : toGroups(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * Whether one more attempt for `account` may be checked, given the attempts counted for its
 * address within the window (any account). Refused attempts are not counted, so the wait ends
 * when the oldest attempt that fills a limit leaves the window, however hard someone keeps trying.
 */
export function throttleVerdict(counted: readonly CountedAttempt[], account: string, now: Date, limits = SIGN_IN_LIMITS): ThrottleVerdict {
  const since = now.getTime() - limits.windowMs;
  const inWindow = counted
    .map((a) => ({ email: a.email, at: a.at.getTime() }))
    .filter((a) => a.at > since)
    .sort((x, y) => x.at - y.at);
  const forAccount = inWindow.filter((a) => a.email === account);
  const waits = [
    waitForSlot(
      forAccount.map((a) => a.at),
      limits.perAccountAndAddress,
      limits.windowMs,
      now.getTime(),
    ),
    waitForSlot(
      inWindow.map((a) => a.at),
      limits.perAddress,
      limits.windowMs,
      now.getTime(),
    ),
  ].filter((wait): wait is number => wait !== null);
  if (waits.length > 0) return { allowed: false, retryAfterMs: Math.max(1000, ...waits) };
  const limitReached: LimitReached | null =
    forAccount.length + 1 === limits.perAccountAndAddress ? 'account and address' : inWindow.length + 1 === limits.perAddress ? 'address' : null;
  return { allowed: true, limitReached };
}

/** Milliseconds until fewer than `limit` of `times` (ascending) are in the window; null if already. */
function waitForSlot(times: number[], limit: number, windowMs: number, now: number): number | null {
  if (times.length < limit) return null;
  return times[times.length - limit]! + windowMs - now;
}

/** The 429 page's sentence: depends only on the wait, never on whether the account exists. */
export function throttledMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

export const retryAfterSeconds = (retryAfterMs: number) => Math.max(1, Math.ceil(retryAfterMs / 1000));
