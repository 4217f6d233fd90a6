import {
  EXACT_TOTAL_CAP,
  UNPAGED_LIST_CAP,
  type Client,
  type ClientListId,
  type ClientListPage,
  type ClientListQuery,
} from '../../../contract/clients';
import type { Database } from '../db/client';
import {
  cappedCountQuery,
  decodeCursor,
  encodeCursor,
  estimateQuery,
  pageQuery,
  pagingDefaults,
  unpagedQuery,
  type CursorSigner,
  type ListRequest,
} from './listQuery';
import { toClient, type ClientRow } from './rows';

/** Whether the caller sent any paging, sorting or filter parameter (and so gets a page). */
export const wantsPage = (query: ClientListQuery) => Object.values(query).some((value) => value !== undefined);

/**
 * From which planner estimate on a total is not counted: counting even 10,000 rows costs tens of
 * milliseconds on PGlite. A plain list's estimate comes from the table's statistics and is close;
 * a quick filter's (trigram selectivity) can be off several times, so it is counted far longer.
 */
export const trustedEstimateFrom = (request: Pick<ListRequest, 'q'>) => (request.q ? 5 * EXACT_TOTAL_CAP : EXACT_TOTAL_CAP);

async function plannerEstimate(database: Database, request: Pick<ListRequest, 'listId' | 'now' | 'q'>) {
  const [plan] = await database.query<{ 'QUERY PLAN': unknown }>(estimateQuery(request));
  const raw = plan!['QUERY PLAN'];
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[];
  return Math.round(parsed[0]!.Plan['Plan Rows']);
}

/**
 * The total of a list without counting a million rows. A page that has no next page tells the
 * exact total by itself. Otherwise the planner's estimate decides: a large list keeps the
 * estimate (flagged), a smaller one is counted, but never beyond EXACT_TOTAL_CAP + 1 rows.
 * Exported with `database` injectable so the decision can be tested without a million rows.
 */
export async function listTotal(
  database: Database,
  request: Pick<ListRequest, 'listId' | 'now' | 'q'>,
  page: { offset: number; rows: number; hasNext: boolean },
): Promise<{ total: number; estimate: boolean }> {
  const seen = page.offset + page.rows + (page.hasNext ? 1 : 0);
  if (!page.hasNext && (page.rows > 0 || page.offset === 0)) return { total: seen, estimate: false };
  const estimate = await plannerEstimate(database, request);
  if (estimate >= trustedEstimateFrom(request)) return { total: Math.max(estimate, seen), estimate: true };
  const counted = cappedCountQuery(request);
  const [row] = await database.query<{ n: number }>(counted.text, counted.params);
  const exact = Number(row!.n);
  if (exact <= EXACT_TOTAL_CAP) return { total: exact, estimate: false };
  return { total: Math.max(EXACT_TOTAL_CAP + 1, estimate, seen), estimate: true };
}

export async function listPage(
  database: Database,
  listId: ClientListId,
  query: ClientListQuery,
  now: Date,
  signer: CursorSigner,
): Promise<ClientListPage> {
  const sort = query.sort ?? pagingDefaults.sort;
  const order = query.order ?? pagingDefaults.order;
  const request: ListRequest = {
    listId,
    now,
    sort,
    order,
    q: query.q || undefined,
    page: query.page ?? pagingDefaults.page,
    perPage: query.perPage ?? pagingDefaults.perPage,
    after: query.after ? decodeCursor(query.after, sort, order, signer) : undefined,
  };
  const built = pageQuery(request);
  const rows = await database.query<ClientRow & { sort_value: string }>(built.text, built.params);
  const hasNext = rows.length > request.perPage;
  const onPage = rows.slice(0, request.perPage);
  const last = onPage[onPage.length - 1];
  const counted = await listTotal(database, request, { offset: (request.page - 1) * request.perPage, rows: onPage.length, hasNext });
  return {
    clients: onPage.map(toClient),
    total: counted.total,
    total_is_estimate: counted.estimate,
    page: request.page,
    perPage: request.perPage,
    next_cursor: hasNext && last ? encodeCursor({ sort, order, value: last.sort_value, id: Number(last._id) }, signer) : null,
  };
}

/** The whole list as the spec's console asks for it, capped so a million rows never go out in one body. */
export async function unpagedList(database: Database, listId: ClientListId, now: Date): Promise<{ clients: Client[]; truncated: boolean }> {
  const built = unpagedQuery(listId, now, UNPAGED_LIST_CAP);
  const rows = await database.query<ClientRow>(built.text, built.params);
  return { clients: rows.slice(0, UNPAGED_LIST_CAP).map(toClient), truncated: rows.length > UNPAGED_LIST_CAP };
}
