import { INT4_MAX } from '@contract/ids';
import { findUnsafeText } from '@contract/text';
import { DEFAULT_HITS_PER_PAGE, MAX_HITS_PER_PAGE, MAX_QUERY_LENGTH } from '@contract/search';

export interface SearchParams {
  query: string;
  page: number;
  hitsPerPage: number;
  highlightPreTag: string;
  highlightPostTag: string;
  /** undefined: every attribute. */
  attributesToRetrieve?: string[];
  attributesToHighlight?: string[];
  typoTolerance: boolean;
  /** The parameters as given, echoed URL-encoded in each result's `params`. */
  echo: Record<string, unknown>;
}

/** A malformed query: answered 400 in Algolia's `{ message, status }` shape. */
export class SearchParamsError extends Error {}

/** Algolia's own reading of a v4 `params` string: arrays and objects arrive JSON-encoded. */
function decodeParamsString(value: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of new URLSearchParams(value)) {
    const trimmed = raw.trim();
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
      try {
        out[key] = JSON.parse(trimmed);
        continue;
      } catch {
        // Kept as text: a query may well start with a bracket.
      }
    }
    out[key] = raw;
  }
  return out;
}

/** Algolia's serializeQueryParameters: sorted keys, arrays joined by commas, %20 for spaces. */
export function encodeParams(params: Record<string, unknown>): string {
  return Object.keys(params)
    .sort()
    .filter((key) => params[key] !== undefined)
    .map((key) => {
      const value = params[key];
      const text = Array.isArray(value) ? value.join(',') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
      return `${key}=${encodeURIComponent(text).replace(/\+/g, '%20')}`;
    })
    .join('&');
}

/** A JSON number or plain digits (v4's params string is text), within int4 so that paging arithmetic stays exact. */
function integer(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(number) || number < min || number > INT4_MAX) throw new SearchParamsError(`${name} must be a whole number from ${min} to ${INT4_MAX}`);
  return number;
}

function list(name: string, value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string')
    return value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new SearchParamsError(`${name} must be a list of attribute names`);
}

function tag(name: string, value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || value.length > 256) throw new SearchParamsError(`${name} must be a text of at most 256 characters`);
  return value;
}

/**
 * One request's parameters: v5 flattens them into the request object, InstantSearch through v5
 * nests them as `params: {…}`, v4 sends `params` as a URL-encoded string. Unknown ones are ignored.
 */
export function readSearchParams(request: Record<string, unknown>): SearchParams {
  const { indexName: _index, params, ...flat } = request;
  const nested = typeof params === 'string' ? decodeParamsString(params) : params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  const echo = { ...flat, ...nested };
  // A v4 params string is decoded here, after the request-wide text check: %00 or a JSON escape becomes a character only now.
  const unsafe = findUnsafeText(echo, 'params');
  if (unsafe) throw new SearchParamsError(`${unsafe.path} ${unsafe.message}`);
  const rawQuery = echo.query ?? '';
  if (typeof rawQuery !== 'string' && typeof rawQuery !== 'number') throw new SearchParamsError('query must be a text');
  // Algolia refuses longer queries; the widget already stops typing at this length.
  const query = String(rawQuery).slice(0, MAX_QUERY_LENGTH);
  const typo = echo.typoTolerance;
  return {
    query,
    page: integer('page', echo.page, 0, 0),
    hitsPerPage: Math.min(MAX_HITS_PER_PAGE, integer('hitsPerPage', echo.hitsPerPage, DEFAULT_HITS_PER_PAGE, 0)),
    highlightPreTag: tag('highlightPreTag', echo.highlightPreTag, '<em>'),
    highlightPostTag: tag('highlightPostTag', echo.highlightPostTag, '</em>'),
    attributesToRetrieve: list('attributesToRetrieve', echo.attributesToRetrieve),
    attributesToHighlight: list('attributesToHighlight', echo.attributesToHighlight),
    typoTolerance: !(typo === false || typo === 'false'),
    echo,
  };
}
