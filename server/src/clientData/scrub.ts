/** Pure rules of what an erasure leaves: audit entries without the client's name or e-mail, tokens shown redacted. */

/** Fields of an audit entry's before/after that hold free text about the client (notes, pushes): removed whole. */
const FREE_TEXT_KEYS = new Set(['body', 'title', 'message', 'note', 'text']);

export const ERASED_TEXT = '(erased)';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces every occurrence of the client's personal values (names, e-mail, ids; case-insensitive)
 * by `label`, and free-text fields by '(erased)', anywhere in a JSON value.
 */
export function scrubValue(value: unknown, personal: readonly string[], label: string): unknown {
  const words = [...new Set(personal.map((text) => text.trim()).filter((text) => text.length >= 2))].sort((a, b) => b.length - a.length);
  const pattern = words.length ? new RegExp(words.map(escape).join('|'), 'gi') : null;
  const walk = (item: unknown, key?: string): unknown => {
    if (typeof item === 'string') {
      if (key !== undefined && FREE_TEXT_KEYS.has(key)) return ERASED_TEXT;
      return pattern ? item.replace(pattern, label) : item;
    }
    if (Array.isArray(item)) return item.map((entry) => walk(entry));
    if (item && typeof item === 'object') return Object.fromEntries(Object.entries(item).map(([name, entry]) => [name, walk(entry, name)]));
    return item;
  };
  return walk(value);
}

/** A push token shown redacted: its last 6 characters, enough to tell devices apart. */
export const redactToken = (token: unknown) => (typeof token === 'string' && token.length > 0 ? `…${token.slice(-6)}` : token);

/** Every value under a key naming a token, redacted, anywhere in a JSON value. */
export function redactTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactTokens);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, /token/i.test(key) ? redactToken(entry) : redactTokens(entry)]));
  return value;
}
