import type { HighlightResult } from '../../../contract/search';

/**
 * Words exactly as migration 0015's search_client_words splits them: runs of digits, or runs of
 * anything that is neither a digit, white space nor ASCII punctuation; lower-cased.
 */
const WORD = /[0-9]+|[^0-9\s!-/:-@[-`{-~]+/gu;
export const MAX_WORD_LENGTH = 64;

export interface Word {
  text: string;
  start: number;
  end: number;
}

export function words(value: string): Word[] {
  const found: Word[] = [];
  for (const match of value.matchAll(WORD)) {
    found.push({ text: match[0].toLowerCase(), start: match.index!, end: match.index! + match[0].length });
  }
  return found;
}

/** The distinct query words, in order, each at most 64 characters (longer ones cannot match). */
export function queryWords(query: string): string[] {
  return [...new Set(words(query).map((w) => w.text))].filter((w) => w.length <= MAX_WORD_LENGTH);
}

/** Words one edit away (delete, transpose, replace, insert) for typo tolerance. */
export function oneEditVariants(word: string, alphabet: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < word.length; i++) {
    out.add(word.slice(0, i) + word.slice(i + 1));
    if (i + 1 < word.length) out.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
    for (const c of alphabet) out.add(word.slice(0, i) + c + word.slice(i + 1));
  }
  for (let i = 0; i <= word.length; i++) for (const c of alphabet) out.add(word.slice(0, i) + c + word.slice(i));
  out.delete(word);
  return [...out];
}

/** True when `a` and `b` are at most one edit (Damerau: delete, insert, replace, transpose) apart. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

/** Typo tolerance starts at words of this length (issue 9). */
export const MIN_TYPO_LENGTH = 4;

/**
 * Algolia's `_highlightResult` entry for one attribute: each of the value's words that a query
 * word matches (as a prefix, or whole with one typo for words of 4+ characters) is wrapped in the
 * request's tags; a prefix match wraps only the matched part, like Algolia.
 */
export function highlight(value: string | null, query: string[], preTag: string, postTag: string): HighlightResult {
  const text = value ?? '';
  const matched = new Set<string>();
  const spans: { start: number; end: number }[] = [];
  for (const word of words(text)) {
    let best = 0;
    for (const q of query) {
      let length = 0;
      if (word.text.startsWith(q)) length = q.length;
      else if (q.length >= MIN_TYPO_LENGTH && withinOneEdit(q, word.text)) length = word.text.length;
      if (length > 0) matched.add(q);
      best = Math.max(best, length);
    }
    // Lower-casing can change lengths for a few scripts; then the whole word is marked.
    if (best > 0) spans.push({ start: word.start, end: word.start + (word.text.length === word.end - word.start ? best : word.end - word.start) });
  }
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + preTag + text.slice(span.start, span.end) + postTag;
    at = span.end;
  }
  out += text.slice(at);
  const covered = spans.reduce((sum, span) => sum + (span.end - span.start), 0);
  const letters = words(text).reduce((sum, word) => sum + (word.end - word.start), 0);
  const matchLevel = matched.size === 0 ? 'none' : matched.size === query.length ? 'full' : 'partial';
  return { value: out, matchLevel, matchedWords: [...matched], ...(matched.size > 0 ? { fullyHighlighted: covered === letters } : {}) };
}
