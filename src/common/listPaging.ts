import type { Client, ClientListPage, UnpagedClientList } from '@contract/clients';
import { CLIENT_SORT_FIELDS, MAX_OVERRIDE_DAYS, MAX_PER_PAGE, NUMBERED_LIST_MAX, type ClientSortField } from '@contract/clientRules';
import { MAX_ACTIVITY_DAYS, matchesClientFilter, type ClientFilter } from '@contract/clientFilterRules';
import { REVENUE_FIGURES, type RevenueFigure } from '@contract/revenueRules';
import { TAG_MAX, TAG_PATTERN, normalizeTag } from '@contract/notesRules';
import { OUTCOME_FILTER } from '@contract/outcomeRules';

/** What react-admin's list asks for (getList params, narrowed to what the client lists use). */
export interface ListRequest {
  page: number;
  perPage: number;
  sort: { field: string; order: 'ASC' | 'DESC' | string };
  filter?: ClientFilter;
  /** The export reads the list: the server asks for a re-authentication when it is large. */
  exporting?: boolean;
}

/** react-admin's sort field as the API's sort parameter ('id' is the client's _id). */
export function apiSortField(field: string | undefined): ClientSortField {
  if (!field || field === 'id') return '_id';
  return (CLIENT_SORT_FIELDS as readonly string[]).includes(field) ? (field as ClientSortField) : '_id';
}

export const apiOrder = (order: string | undefined): 'ASC' | 'DESC' => (String(order).toUpperCase() === 'DESC' ? 'DESC' : 'ASC');
export const otherOrder = (order: string | undefined): 'ASC' | 'DESC' => (apiOrder(order) === 'ASC' ? 'DESC' : 'ASC');

const booleanValue = (value: unknown) => (value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined);
const asList = (value: unknown) => (Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value]);

/** The segment filters: days back, and yes/no. */
export const ACTIVITY_KEYS = ['last_class_days', 'no_class_days', 'last_stream_days', 'no_stream_days', 'last_activity_days'] as const;
export const BOOLEAN_SEGMENT_KEYS = ['app_installed', 'opted_out', 'snoozed'] as const;

/**
 * react-admin's filter values (from the URL, so anything) as a client filter: parts that are not
 * a valid value of their kind are left out rather than sent to be refused.
 */
export function clientFilterOf(values: Record<string, unknown> | undefined): ClientFilter {
  const filter: ClientFilter = {};
  if (!values) return filter;
  if (typeof values.q === 'string' && values.q.trim()) filter.q = values.q.trim();
  const status = asList(values.status).filter((item): item is string => typeof item === 'string' && item.trim() !== '');
  if (status.length) filter.status = status;
  const levels = asList(values.vod_access_level)
    .map(Number)
    .filter((item) => Number.isInteger(item) && item >= 0);
  if (levels.length) filter.vod_access_level = levels;
  for (const key of ['new', 'mindbody', 'override_running', ...BOOLEAN_SEGMENT_KEYS] as const) {
    const value = booleanValue(values[key]);
    if (value !== undefined) filter[key] = value;
  }
  const days = Number(values.override_ends_within_days);
  if (Number.isInteger(days) && days >= 1 && days <= MAX_OVERRIDE_DAYS) filter.override_ends_within_days = days;
  for (const key of ACTIVITY_KEYS) {
    const value = values[key] === '' || values[key] === null ? Number.NaN : Number(values[key]);
    if (Number.isInteger(value) && value >= 1 && value <= MAX_ACTIVITY_DAYS) filter[key] = value;
  }
  const tags = asList(values.tag)
    .flatMap((item) => (typeof item === 'string' ? item.split(',') : []))
    .map(normalizeTag)
    .filter((tag) => tag.length <= TAG_MAX && TAG_PATTERN.test(tag));
  if (tags.length) filter.tag = [...new Set(tags)];
  if (typeof values.outcome === 'string' && OUTCOME_FILTER.test(values.outcome)) filter.outcome = values.outcome;
  // The clients behind a Revenue figure: the server checks the values and names a bad one.
  if (typeof values.revenue_figure === 'string' && (REVENUE_FIGURES as readonly string[]).includes(values.revenue_figure)) {
    filter.revenue_figure = values.revenue_figure as RevenueFigure;
    for (const key of REVENUE_RANGE_KEYS) if (typeof values[key] === 'string' && values[key]) filter[key] = values[key];
  }
  return filter;
}

const REVENUE_RANGE_KEYS = ['revenue_from', 'revenue_to'] as const;

/** The query of one page: page and perPage always (perPage capped), the filter, an `after` cursor when known. */
export function pageSearch(request: ListRequest, after?: string): URLSearchParams {
  const search = new URLSearchParams({
    page: String(request.page),
    perPage: String(Math.min(request.perPage, MAX_PER_PAGE)),
    sort: apiSortField(request.sort.field),
    order: apiOrder(request.sort.order),
  });
  if (request.exporting) search.set('export', 'true');
  const filter = request.filter ?? {};
  if (filter.q?.trim()) search.set('q', filter.q.trim());
  for (const status of filter.status ?? []) search.append('status', status);
  for (const level of filter.vod_access_level ?? []) search.append('vod_access_level', String(level));
  for (const key of ['new', 'mindbody', 'override_running', 'override_ends_within_days', ...ACTIVITY_KEYS, ...BOOLEAN_SEGMENT_KEYS] as const) {
    if (filter[key] !== undefined) search.set(key, String(filter[key]));
  }
  for (const tag of filter.tag ?? []) search.append('tag', tag);
  if (filter.outcome) search.set('outcome', filter.outcome);
  for (const key of ['revenue_figure', ...REVENUE_RANGE_KEYS] as const) if (filter[key]) search.set(key, filter[key]);
  if (after) search.set('after', after);
  return search;
}

/** A server that honours the paging parameters answers `total`; one that ignores them, the whole list. */
export const isServerPage = (body: ClientListPage | UnpagedClientList): body is ClientListPage => typeof (body as ClientListPage).total === 'number';

/** Whether the server pages a list of this total by number (every page of it), or only by cursor. */
export const pagedByNumber = (total: { total: number; total_is_estimate: boolean }) => !total.total_is_estimate && total.total <= NUMBERED_LIST_MAX;

/**
 * Remembers, per list/sort/filter/page size, the cursor that starts each page, so stepping
 * page by page is a keyset read at any depth, and the list's last total, which says whether a
 * page without a known cursor may be asked for by its number.
 */
export class CursorBook {
  private readonly cursors = new Map<string, Map<number, string>>();
  private readonly totals = new Map<string, boolean>();
  private static readonly MAX_LISTINGS = 20;

  private static key(listId: number, request: ListRequest) {
    const filter = request.filter ?? {};
    const canonical = Object.keys(filter)
      .sort()
      .map((key) => [key, filter[key as keyof ClientFilter]]);
    return JSON.stringify([listId, apiSortField(request.sort.field), apiOrder(request.sort.order), canonical, Math.min(request.perPage, MAX_PER_PAGE)]);
  }

  get(listId: number, request: ListRequest): string | undefined {
    return this.cursors.get(CursorBook.key(listId, request))?.get(request.page);
  }

  /** Whether the last answer for this listing said its pages go by number; undefined before any answer. */
  numbered(listId: number, request: ListRequest): boolean | undefined {
    return this.totals.get(CursorBook.key(listId, request));
  }

  setTotal(listId: number, request: ListRequest, total: { total: number; total_is_estimate: boolean }) {
    const key = CursorBook.key(listId, request);
    if (!this.totals.has(key) && this.totals.size >= CursorBook.MAX_LISTINGS) this.totals.delete(this.totals.keys().next().value!);
    this.totals.set(key, pagedByNumber(total));
  }

  /** Records that page `request.page + 1` starts after `cursor`. */
  setNext(listId: number, request: ListRequest, cursor: string | null) {
    const key = CursorBook.key(listId, request);
    let pages = this.cursors.get(key);
    if (!pages) {
      if (this.cursors.size >= CursorBook.MAX_LISTINGS) this.cursors.delete(this.cursors.keys().next().value!);
      pages = new Map();
      this.cursors.set(key, pages);
    }
    if (cursor) pages.set(request.page + 1, cursor);
    else pages.delete(request.page + 1);
  }
}

/** The sort key of a client, folded exactly as the server's indexes fold it (case, NULLs). */
function sortKey(client: Client, field: ClientSortField): string | number {
  switch (field) {
    case '_id':
      return client._id;
    case 'vod_access_level':
      return client.vod_access_level ?? 0;
    case 'first_login':
      return client.first_login ? Date.parse(client.first_login) : -Infinity;
    case 'client_status':
      return client.client_status ?? 'Pending';
    default:
      return (client[field] ?? '').toLowerCase();
  }
}

/** Sorting, filtering and paging in the browser, for a server that answered the whole list. */
export function pageInBrowser(clients: Client[], request: ListRequest, now = new Date()): { data: Client[]; total: number } {
  const field = apiSortField(request.sort.field);
  const direction = apiOrder(request.sort.order) === 'DESC' ? -1 : 1;
  const filter = request.filter ?? {};
  const matching = clients.filter((client) => matchesClientFilter(client, filter, now));
  matching.sort((a, b) => {
    const left = sortKey(a, field);
    const right = sortKey(b, field);
    if (left !== right) return (left < right ? -1 : 1) * direction;
    return (a._id - b._id) * direction;
  });
  const start = (request.page - 1) * request.perPage;
  return { data: matching.slice(start, start + request.perPage), total: matching.length };
}
