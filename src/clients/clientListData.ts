import type { GetListParams, GetListResult } from 'react-admin';
import type { Client, ClientListPage, UnpagedClientList } from '@contract/clients';
import { MAX_PER_PAGE } from '@contract/clientRules';
import type { HttpClient } from '../providers/http';
import { CursorBook, clientFilterOf, isServerPage, otherOrder, pageInBrowser, pageSearch, type ListRequest } from '../common/listPaging';

/** A client as react-admin handles it: the API's record plus react-admin's `id` (= `_id`). */
export type ClientRecord = Client & { id: number };

/** What the list asks for beyond react-admin's page: a page counted from the end of the list. */
export type ClientListQueryMeta = {
  /** 1 = the last page, 2 = the one before it, ... */
  fromEnd?: number;
};

/** Meta of a list answer, for the pagination. */
export interface ClientListMeta {
  /** `total` is the server's estimate (large lists). */
  total_is_estimate: boolean;
  /** The server ignored the paging parameters; the console pages the whole list itself. */
  paged_in_browser: boolean;
  /** Set when the page was asked for from the end of the list (1 = last). */
  from_end?: number;
  /** Whether rows follow this page, and whether rows precede it, in the list's order. */
  has_next: boolean;
  has_previous: boolean;
  /** Nothing was asked: a page beyond the first of a list the server pages by cursor only, whose cursor is not known (e.g. after a reload). */
  unreachable?: boolean;
}

const toRecord = (client: Client): ClientRecord => ({ ...client, id: client._id });
type Answer = ClientListPage | UnpagedClientList;

/** getList of the four client lists: pages by number near the start, by cursor deeper, from either end. */
export function clientListReader(http: HttpClient) {
  const cursors = new CursorBook();
  const get = async (listId: number, request: ListRequest, after?: string) =>
    (await http(`/api/client/v1/clients/${listId}?${pageSearch(request, after)}`)).json as Answer;

  /**
   * One server page: by the cursor recorded for it, else by number where the server pages the
   * list by number (learnt from its first page, asked first when not known yet); null when neither.
   */
  async function fetchPage(listId: number, request: ListRequest): Promise<Answer | null> {
    const after = request.page > 1 ? cursors.get(listId, request) : undefined;
    if (!after && request.page > 1) {
      if (cursors.numbered(listId, request) === undefined) {
        const first = await fetchPage(listId, { ...request, page: 1 });
        // A server that ignores the paging parameters answered the whole list: it holds this page too.
        if (first && !isServerPage(first)) return first;
      }
      if (!cursors.numbered(listId, request)) return null;
    }
    const body = await get(listId, request, after);
    if (isServerPage(body)) {
      cursors.setNext(listId, request, body.next_cursor);
      cursors.setTotal(listId, request, body);
    }
    return body;
  }

  async function getClientList(listId: number, params: GetListParams): Promise<GetListResult<ClientRecord>> {
    const request: ListRequest = {
      page: params.pagination?.page ?? 1,
      perPage: params.pagination?.perPage ?? 25,
      sort: params.sort ?? { field: '_id', order: 'ASC' },
      filter: clientFilterOf(params.filter),
    };
    const fromEnd = Number((params.meta as ClientListQueryMeta | undefined)?.fromEnd);
    if (Number.isInteger(fromEnd) && fromEnd >= 1 && request.perPage <= MAX_PER_PAGE) return pageFromEnd(listId, request, fromEnd);
    const wanted = request.perPage;
    // Only an export asks for more than one server page.
    if (wanted > MAX_PER_PAGE) request.exporting = true;
    const first = await fetchPage(listId, { ...request, perPage: Math.min(wanted, MAX_PER_PAGE) });
    if (!first) return unreachable(request);
    if (!isServerPage(first)) return inBrowser(first.clients, request);
    const rows = [...first.clients];
    let page = first;
    // Only an export asks for more than one server page; it walks on by cursor.
    while (wanted > MAX_PER_PAGE && rows.length < wanted && page.next_cursor && request.page === 1) {
      const next = await get(listId, { ...request, page: page.page + 1, perPage: MAX_PER_PAGE }, page.next_cursor);
      if (!isServerPage(next)) break;
      rows.push(...next.clients);
      page = next;
    }
    const meta: ClientListMeta = {
      total_is_estimate: first.total_is_estimate,
      paged_in_browser: false,
      has_next: first.next_cursor !== null,
      has_previous: request.page > 1,
    };
    return { data: rows.slice(0, wanted).map(toRecord), total: first.total, meta };
  }

  /** The end of a list is the start of the other order: that page, its rows put back in the list's order. */
  async function pageFromEnd(listId: number, request: ListRequest, fromEnd: number): Promise<GetListResult<ClientRecord>> {
    const reversed: ListRequest = { ...request, page: fromEnd, sort: { field: request.sort.field, order: otherOrder(request.sort.order) } };
    const body = await fetchPage(listId, reversed);
    if (!body) return unreachable(request);
    if (!isServerPage(body)) return inBrowser(body.clients, request);
    const meta: ClientListMeta = {
      total_is_estimate: body.total_is_estimate,
      paged_in_browser: false,
      from_end: fromEnd,
      has_next: fromEnd > 1,
      has_previous: body.next_cursor !== null,
    };
    return { data: [...body.clients].reverse().map(toRecord), total: body.total, meta };
  }

  function inBrowser(clients: Client[], request: ListRequest): GetListResult<ClientRecord> {
    const { data, total } = pageInBrowser(clients, request);
    const meta: ClientListMeta = {
      total_is_estimate: false,
      paged_in_browser: true,
      has_next: request.page * request.perPage < total,
      has_previous: request.page > 1,
    };
    return { data: data.map(toRecord), total, meta };
  }

  // react-admin goes back to page 1 when a page beyond the first comes back empty.
  const unreachable = (request: ListRequest): GetListResult<ClientRecord> => ({
    data: [],
    total: 0,
    meta: { total_is_estimate: false, paged_in_browser: false, has_next: false, has_previous: request.page > 1, unreachable: true } satisfies ClientListMeta,
  });

  return getClientList;
}
