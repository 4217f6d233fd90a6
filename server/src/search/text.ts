import type { HighlightResult } from '@contract/search';

/**
 * Words exactly as migration 0026's search_client_words splits them: runs of digits, or runs of
 * anything that is neither a digit, white space nor ASCII punctuation; lower-cased and folded.
 */
const WORD = /[0-9]+|[^0-9\s!-/:-@[-`{-~]+/gu;
const ACCENTS = /[\u0300-\u036f]/g;
const UNACCENTED: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ı: 'i' };

/**
 * Accents do not count, as in Algolia: 'ramon' finds Ramón, 'zoe' Zoë (search_fold, migration 0026).
 * A few letters with no decomposition are mapped one to one, so lengths stay those of the text.
 */
export const fold = (lowerCased: string) =>
  lowerCased
    .normalize('NFD')
    .replace(ACCENTS, '')
    .normalize('NFC')
    .replace(/[øłđı]/g, (letter) => UNACCENTED[letter]!);
export const MAX_WORD_LENGTH = 64;

export interface Word {
  text: string;
  start: number;
  end: number;
}

export function words(value: string): Word[] {
  const found: Word[] = [];
  for (const match of value.matchAll(WORD)) {
    const text = fold(match[0].toLowerCase());
    // A lone accent (after a digit, say) folds to nothing: no word, as in the database.
    if (text) found.push({ text, start: match.index!, end: match.index! + match[0].length });
  }
  return found;
}

/** The distinct query words, in order, each at most 64 characters (longer ones cannot match). */
export function queryWords(query: string): string[] {
  // No stored text holds NUL (PostgreSQL refuses it in text, and would refuse the query): it separates words.
  return [...new Set(words(query.replace(/\u0000/g, ' ')).map((w) => w.text))].filter((w) => w.length <= MAX_WORD_LENGTH);
}

/** Words one edit away (delete, transpose, replace, insert) for typo tolerance. */
export function oneEditVariants(word: string, alphabet: string): string[] {
  // By character, not UTF-16 unit: an edit inside a surrogate pair would make text no database stores.
  const chars = [...word];
  const letters = [...alphabet];
  const text = (from: number, to?: number) => chars.slice(from, to).join('');
  const out = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    out.add(text(0, i) + text(i + 1));
    if (i + 1 < chars.length) out.add(text(0, i) + chars[i + 1] + chars[i] + text(i + 2));
    for (const c of letters) out.add(text(0, i) + c + text(i + 1));
  }
  for (let i = 0; i <= chars.length; i++) for (const c of letters) out.add(text(0, i) + c + text(i));
  out.delete(word);
  return [...out];
}

/** True when `a` and `b` are at most one edit (Damerau: delete, insert, replace, transpose) apart, counted in characters. */
export function withinOneEdit(left: string, right: string): boolean {
  if (left === right) return true;
  const a = [...left];
  const b = [...right];
  if (Math.abs(a.length - b.length) > 1) return false;
  const rest = (chars: string[], from: number) => chars.slice(from).join('');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (rest(a, i + 1) === rest(b, i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && rest(a, i + 2) === rest(b, i + 2);
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return rest(long, i + 1) === rest(short, i);
}

/** Typo tolerance starts at words of this length (docs/search.md). */
export const MIN_TYPO_LENGTH = 4;

const typoAlphabet = (word: string) =>
  /^[0-9]+$/.test(word) ? '' : [...new Set(`abcdefghijklmnopqrstuvwxyz${word}`)].filter((c) => !/[0-9]/.test(c)).join('');

/** The spellings one edit away that a typo-tolerant word may stand for (none for short words and numbers). */
export function typoCandidates(word: string): Set<string> {
  const alphabet = typoAlphabet(word);
  return word.length < MIN_TYPO_LENGTH || !alphabet ? new Set() : new Set(oneEditVariants(word, alphabet));
}

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

/**
 * The bits migration 0026's search_prefix_bits gives a one- or two-character word prefix: two of
 * 64, picked by a mixed multiplicative hash of its (first, second) code point. Two bits, so a
 * prefix sharing one bit with a prefix every client has (the 'c' of 'com') still filters.
 */
export function prefixBits(prefix: string): bigint {
  const [first, second] = [...prefix];
  const code = BigInt((first?.codePointAt(0) ?? 0) * 131 + (second?.codePointAt(0) ?? 0));
  const h = (code * 0x9e3779b1n) & 0xffffffffn;
  const g = (((h ^ (h >> 15n)) & 0x7fffffffn) * 0x85ebca6bn) & 0xffffffffn;
  return (1n << (g >> 26n)) | (1n << ((g >> 20n) & 63n));
}

/**
 * The bits a client's sig has for every word that starts with `word` (search_word_bits): its first
 * character's and, from two characters on, its first two characters'. As a signed 64-bit value,
 * like SQL's bigint.
 */
export function wordBits(word: string): bigint {
  const chars = [...word];
  const bits = prefixBits(chars.slice(0, 1).join('')) | (chars.length >= 2 ? prefixBits(chars.slice(0, 2).join('')) : 0n);
  return BigInt.asIntN(64, bits);
}
