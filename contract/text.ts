import { z } from 'zod';

// PostgreSQL text and jsonb cannot hold U+0000, and a surrogate without its partner has no UTF-8
// form (PGlite refuses it, node-postgres silently turns it into U+FFFD).
const UNSAFE_CHARACTER = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSAFE_CHARACTERS = new RegExp(UNSAFE_CHARACTER.source, 'g');

export const UNSAFE_TEXT_MESSAGE = 'must not contain NUL or unpaired surrogate characters';

export const hasUnsafeText = (text: string) => UNSAFE_CHARACTER.test(text);

/** Text without the characters no database column can store: refused with a message naming the field. */
export const safeText = () => z.string().refine((text) => !hasUnsafeText(text), UNSAFE_TEXT_MESSAGE);

/** The text with U+0000 and unpaired surrogates removed; what comes from outside services is cleaned this way, not refused. */
export const removeUnsafeCharacters = (text: string) => text.replace(UNSAFE_CHARACTERS, '');

export interface UnsafeTextProblem {
  /** Dotted like the schema errors: `body.notification.title`, `body.items.0`. */
  path: string;
  message: string;
}

/** The first string or object key in a parsed request part that holds unsafe text, if any. */
export function findUnsafeText(value: unknown, path: string): UnsafeTextProblem | undefined {
  if (typeof value === 'string') return hasUnsafeText(value) ? { path, message: UNSAFE_TEXT_MESSAGE } : undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findUnsafeText(value[index], `${path}.${index}`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (hasUnsafeText(key)) return { path, message: `keys ${UNSAFE_TEXT_MESSAGE}` };
      const found = findUnsafeText(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}
