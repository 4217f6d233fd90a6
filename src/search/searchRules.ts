import { SEARCH_HOST_SELF } from '@contract/searchConfig';
import { AVATAR_BASE_URL, AVATAR_FALLBACK, AVATAR_SIZE, isShowableCustomerHit } from '@contract/searchRules';
import type { CustomerHit } from '@contract/search';
import { sha256Hex } from './sha256';

export { customerHitPath, isShowableCustomerHit, videoHitPath } from '@contract/searchRules';

/** A 60x60 avatar from Gravatar keyed by the SHA-256 of the trimmed, lower-cased e-mail. */
export const avatarUrl = (email: string) => `${AVATAR_BASE_URL}${sha256Hex(email.trim().toLowerCase())}?s=${AVATAR_SIZE}&d=${AVATAR_FALLBACK}`;

/** Shown when the avatar service cannot be reached at all (closed networks, blocked images). */
export const AVATAR_OFFLINE_FALLBACK = '/avatar-fallback.svg';

/** Hits lacking a first name, last name or e-mail are dropped. */
export const showableHits = <T extends Partial<CustomerHit>>(hits: T[]): T[] => hits.filter(isShowableCustomerHit);

/** Arrow keys move through the list and wrap around; -1 means nothing is selected yet. */
export function moveSelection(current: number, count: number, key: 'ArrowDown' | 'ArrowUp'): number {
  if (count === 0) return -1;
  if (key === 'ArrowDown') return current + 1 >= count ? 0 : current + 1;
  return current <= 0 ? count - 1 : current - 1;
}

/** Timeouts of Algolia's browser clients, in ms. */
export const SEARCH_TIMEOUTS = { connect: 1_000, read: 2_000, write: 30_000 } as const;
/**
 * Our own search endpoint's. Algolia's browser requester counts its "connect" timeout until the
 * answer's headers arrive, which our server sends with the whole answer, and with one host the first
 * timeout ends the search as failed: a busy server answering in 1.2 s read "Search failed". A slow
 * answer is a search still running (the list says "Searching…"); only an unreachable server fails,
 * and it does at once (a network error is no timeout).
 */
export const SELF_SEARCH_TIMEOUTS = { connect: 20_000, read: 20_000, write: 30_000 } as const;

/** Which timeouts a search host gets: hosted Algolia (several hosts, retried) the spec's, our endpoint its own. */
export const searchTimeouts = (host: string) => (host === SEARCH_HOST_SELF ? SELF_SEARCH_TIMEOUTS : SEARCH_TIMEOUTS);
export const SEARCH_DEBOUNCE_MS = 500;
export const STALLED_SEARCH_DELAY_MS = 200;
