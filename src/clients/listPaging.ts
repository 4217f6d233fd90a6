import type { Client, ClientListPage, UnpagedClientList } from '../../contract/clients';
import { CLIENT_SORT_FIELDS, MAX_PER_PAGE, type ClientSortField } from '../../contract/clientRules';

/** What react-admin's list asks for (getList params, narrowed to what the client lists use). */
export interface ListRequest {
  page: number;
  perPage: number;
  sort: { field: string; order: 'ASC' | 'DESC' | string };
  q?: string;
}

/** react-admin's sort field as the API's sort parameter ('id' is the client's _id). */
export function apiSortField(field: string | undefined): ClientSortField {
  if (!field || field === 'id') return '_id';
  return (CLIENT_SORT_FIELDS as readonly string[]).includes(field) ? (field as ClientSortField) : '_id';
}

export const apiOrder = (order: string | undefined): 'ASC' | 'DESC' => (String(order).toUpperCase() === 'DESC' ? 'DESC' : 'ASC');

/** The query of one page: page and perPage always (perPage capped), an `after` cursor when known. */
export function pageSearch(request: ListRequest, after?: string): URLSearchParams {
  const search = new URLSearchParams({
    page: String(request.page),
    perPage: String(Math.min(request.perPage, MAX_PER_PAGE)),
    sort: apiSortField(request.sort.field),
    order: apiOrder(request.sort.order),
  });
  const q = request.q?.trim();
  if (q) search.set('q', q);
  if (after) search.set('after', after);
  return search;
}

/** A server that honours the paging parameters answers `total`; one that ignores them, the whole list. */
export const isServerPage = (body: ClientListPage | UnpagedClientList): body is ClientListPage =>
  typeof (body as ClientListPage).total === 'number';

/**
 * Remembers, per list/sort/filter/page size, the cursor that starts each page, so stepping
 * page by page is a keyset read at any depth; a page without a known cursor falls back to its
 * page number (an offset on the server).
 */
export class CursorBook {
  private readonly cursors = new Map<string, Map<number, string>>();
  private static readonly MAX_LISTINGS = 20;

  private static key(listId: number, request: ListRequest) {
    return JSON.stringify([listId, apiSortField(request.sort.field), apiOrder(request.sort.order), request.q?.trim() ?? '', Math.min(request.perPage, MAX_PER_PAGE)]);
  }

  get(listId: number, request: ListRequest): string | undefined {
    return this.cursors.get(CursorBook.key(listId, request))?.get(request.page);
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

const matchesQuickFilter = (client: Client, q: string) =>
  `${client.first_name ?? ''} ${client.last_name ?? ''} ${client.email_address ?? ''}`.toLowerCase().includes(q.toLowerCase());

/** Sorting, filtering and paging in the browser, for a server that answered the whole list. */
export function pageInBrowser(clients: Client[], request: ListRequest): { data: Client[]; total: number } {
  const field = apiSortField(request.sort.field);
  const direction = apiOrder(request.sort.order) === 'DESC' ? -1 : 1;
  const q = request.q?.trim();
  const matching = q ? clients.filter((client) => matchesQuickFilter(client, q)) : [...clients];
  matching.sort((a, b) => {
    const left = sortKey(a, field);
    const right = sortKey(b, field);
    if (left !== right) return (left < right ? -1 : 1) * direction;
    return (a._id - b._id) * direction;
  });
  const start = (request.page - 1) * request.perPage;
  return { data: matching.slice(start, start + request.perPage), total: matching.length };
}
