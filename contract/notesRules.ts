/**
 * The limits and spelling of staff notes and client tags, without zod, so the
 * console's first load (the client lists' tag filter) does not carry the schema library.
 */
export const NOTE_MAX = 2000;
export const TAG_MAX = 40;
export const TAGS_PER_CLIENT_MAX = 20;
export const TAG_SUGGESTIONS_MAX = 20;

/** A tag as stored and matched: trimmed, inner spaces collapsed, lower case ('VIP ' and 'vip' are one tag). */
export const normalizeTag = (tag: string) => tag.trim().replace(/\s+/g, ' ').toLowerCase();
/** Letters, digits, spaces, '-' and '_', starting with a letter or digit. */
export const TAG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} _-]*$/u;
