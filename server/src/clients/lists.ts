import {
  EXACT_TOTAL_CAP,
  NUMBERED_LIST_MAX,
  UNPAGED_LIST_CAP,
  filterOf,
  type Client,
  type ClientListId,
  type ClientListPage,
  type ClientListQuery,
} from '@contract/clients';
import type { ClientFilter } from '@contract/clientFilter';
import type { Database } from '../db/client';
import { badRequest } from '../lib/errors';
import {
  decodeCursor,
  encodeCursor,
  pageQuery,
  pageRows,
  pagingDefaults,
  plannerEstimate,
  unpagedQuery,
  unpagedRows,
  type CursorSigner,
  type ListRequest,
  type PagePlan,
} from './listQueries';
import { listTotal, trustedEstimateFrom } from './listTotal';
import { toClient } from './rows';

export { listTotal, trustedEstimateFrom } from './listTotal';

/** Whether the caller sent any paging, sorting or filter parameter (and so gets a page). */
export const wantsPage = (query: ClientListQuery) => Object.values(query).some((value) => value !== undefined);

/**
 * How to read a page (listQueries.ts): a selection the planner expects to hold fewer than
 * EXACT_TOTAL_CAP clients is counted for its total anyway, so gathering reads each match once for
 * both the page and the count; a larger one is walked (at least 1 % of the clients match, so a page
 * is full within about 100 × perPage rows) and its total estimated. Walking assumes the matches are
 * spread along the sort; `clustered` says they may bunch (a quick search for 'smith' sorted by last
 * name: the walk would read every name before S first), and such a selection is gathered too while
 * the planner expects few enough to count (`countable`).
 */
export function choosePlan(estimate: number, options: { clustered?: boolean; countable?: number } = {}): PagePlan {
  if (estimate < EXACT_TOTAL_CAP) return 'gather';
  return options.clustered && estimate < (options.countable ?? EXACT_TOTAL_CAP) ? 'gather' : 'walk';
}

/** The quick search reads names and e-mails: sorted by one of them, its matches may bunch together. */
const TEXT_SORTS = new Set<ListRequest['sort']>(['first_name', 'last_name', 'email_address']);
const TRIGRAM_LENGTH = 3;
const clusteredBySort = (request: ListRequest) => (request.filter.q?.trim().length ?? 0) >= TRIGRAM_LENGTH && TEXT_SORTS.has(request.sort);

const plural = (n: number) => n.toLocaleString('en-US');

/** Pages beyond the first are asked for by number only in a list of at most NUMBERED_LIST_MAX clients. */
function notNumbered(request: ListRequest, total: number, estimated: boolean) {
  const other = request.order === 'ASC' ? 'DESC' : 'ASC';
  return badRequest(
    `page ${request.page} asks by number into a list of ${estimated ? 'about ' : ''}${plural(total)} clients: pages by number exist for ` +
      `lists of at most ${plural(NUMBERED_LIST_MAX)} clients (filters narrow one). Page on with after=<next_cursor of the page before>, ` +
      `or read the end of the list as the first pages of order=${other}`,
  );
}

export async function listPage(database: Database, listId: ClientListId, query: ClientListQuery, now: Date, signer: CursorSigner): Promise<ClientListPage> {
  const sort = query.sort ?? pagingDefaults.sort;
  const order = query.order ?? pagingDefaults.order;
  const request: ListRequest = {
    listId,
    filter: filterOf(query),
    now,
    sort,
    order,
    page: query.page ?? pagingDefaults.page,
    perPage: query.perPage ?? pagingDefaults.perPage,
    after: query.after ? decodeCursor(query.after, sort, order, signer) : undefined,
  };
  return pageOf(database, request, signer);
}

/**
 * The first `size` clients a filter selects on the all-clients list, by id, and how many it selects
 * (counted as the lists count: exact up to EXACT_TOTAL_CAP, the planner's estimate above): a segment's preview.
 */
export async function firstClients(
  database: Database,
  filter: ClientFilter,
  size: number,
  now: Date,
): Promise<Pick<ClientListPage, 'clients' | 'total' | 'total_is_estimate'>> {
  const { clients, total, total_is_estimate } = await pageOf(
    database,
    // As the list routes read a filter: its empty values are no condition.
    { listId: 1, filter: filterOf(filter), now, sort: pagingDefaults.sort, order: pagingDefaults.order, page: 1, perPage: size },
    null,
  );
  return { clients, total, total_is_estimate };
}

/** One page of a list; its next page's cursor is signed with `signer` (none without one). */
async function pageOf(database: Database, request: ListRequest, signer: CursorSigner | null): Promise<ClientListPage> {
  const { sort, order } = request;
  const byNumber = !request.after && request.page > 1;
  // Where the page starts in the list, as its number says (with a cursor, the total of a last
  // page is counted from it).
  const position = (request.page - 1) * request.perPage;

  const estimate = await plannerEstimate(database, request);
  // A large list is never paged by number: refused before any row is read.
  if (byNumber && estimate >= trustedEstimateFrom(request)) throw notNumbered(request, estimate, true);
  const plan = choosePlan(estimate, { clustered: clusteredBySort(request), countable: trustedEstimateFrom(request) });

  const built = pageQuery(request, plan);
  const rows = await pageRows(database, built);
  const hasNext = rows.length > request.perPage;
  const onPage = rows.slice(0, request.perPage);
  const last = onPage[onPage.length - 1];
  const gathered = plan === 'gather' && rows[0] ? Number(rows[0].matching) : undefined;
  const counted =
    gathered !== undefined
      ? { total: gathered, estimate: false }
      : await listTotal(database, request, { offset: position, rows: onPage.length, hasNext }, estimate);
  if (byNumber && (counted.estimate || counted.total > NUMBERED_LIST_MAX)) throw notNumbered(request, counted.total, counted.estimate);
  return {
    clients: onPage.map(toClient),
    total: counted.total,
    total_is_estimate: counted.estimate,
    page: request.page,
    perPage: request.perPage,
    next_cursor: signer && hasNext && last ? encodeCursor({ sort, order, value: last.sort_value, id: Number(last._id) }, signer) : null,
  };
}

/** The whole list as the spec's console asks for it, capped so a million rows never go out in one body. */
export async function unpagedList(database: Database, listId: ClientListId, now: Date): Promise<{ clients: Client[]; truncated: boolean }> {
  const built = unpagedQuery(listId, now, UNPAGED_LIST_CAP);
  const rows = await unpagedRows(database, built);
  return { clients: rows.slice(0, UNPAGED_LIST_CAP).map(toClient), truncated: rows.length > UNPAGED_LIST_CAP };
}
