import { AVATAR_BASE_URL, AVATAR_FALLBACK, AVATAR_SIZE, isShowableCustomerHit } from '@contract/searchRules';
import type { CustomerHit } from '@contract/search';
import { sha256Hex } from './sha256';

export { customerHitPath, isShowableCustomerHit, videoHitPath } from '@contract/searchRules';

/** Spec §2: a 60x60 avatar from Gravatar keyed by the SHA-256 of the trimmed, lower-cased e-mail. */
export const avatarUrl = (email: string) => `${AVATAR_BASE_URL}${sha256Hex(email.trim().toLowerCase())}?s=${AVATAR_SIZE}&d=${AVATAR_FALLBACK}`;

/** Shown when the avatar service cannot be reached at all (closed networks, blocked images). */
export const AVATAR_OFFLINE_FALLBACK = '/avatar-fallback.svg';

/** Spec §3: hits lacking a first name, last name or e-mail are dropped. */
export const showableHits = <T extends Partial<CustomerHit>>(hits: T[]): T[] => hits.filter(isShowableCustomerHit);

/** Arrow keys move through the list and wrap around; -1 means nothing is selected yet. */
export function moveSelection(current: number, count: number, key: 'ArrowDown' | 'ArrowUp'): number {
  if (count === 0) return -1;
  if (key === 'ArrowDown') return current + 1 >= count ? 0 : current + 1;
  return current <= 0 ? count - 1 : current - 1;
}

/** Timeouts of Algolia's browser clients, in ms (spec §9). */
export const SEARCH_TIMEOUTS = { connect: 1_000, read: 2_000, write: 30_000 } as const;
export const SEARCH_DEBOUNCE_MS = 500;
export const STALLED_SEARCH_DELAY_MS = 200;
