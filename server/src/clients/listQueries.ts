import { DEFAULT_PER_PAGE, EXACT_TOTAL_CAP, type ClientListId, type ClientSortField } from '@contract/clientRules';
import { LIST_RULES, type ClientFilter } from '@contract/clientFilterRules';
import { z } from 'zod';
import type { Queryable } from '../db/client';
import { timestamp } from '../db/rows';
import { FIRST_LOGIN_EXPR, LEVEL_EXPR, STATUS_EXPR, clientFilterWhere, type Where } from './filterQueries';
import type { Cursor } from './cursor';

export { encodeCursor, decodeCursor, type Cursor, type CursorSigner } from './cursor';

/**
 * Sort keys, written exactly as the expression indexes of migrations/0003_clients_indexes.sql so
 * that ORDER BY and keyset comparisons are index range scans. `type` casts a cursor value back.
 */
const SORT_KEYS: Record<ClientSortField, { expr: string; type: 'bigint' | 'int' | 'text' | 'timestamptz' }> = {
  _id: { expr: 'c.id', type: 'bigint' },
  first_name: { expr: "lower(coalesce(c.first_name, ''))", type: 'text' },
  last_name: { expr: "lower(coalesce(c.last_name, ''))", type: 'text' },
  email_address: { expr: "lower(coalesce(c.email_address, ''))", type: 'text' },
  vod_access_level: { expr: LEVEL_EXPR, type: 'int' },
  client_status: { expr: STATUS_EXPR, type: 'text' },
  first_login: { expr: FIRST_LOGIN_EXPR, type: 'timestamptz' },
};

export const CLIENT_COLUMNS = `c.id AS "_id", c.first_name, c.last_name, c.email_address, c.mb_client_id, c.mb_site_id,
  c.vod_access_level, (SELECT al.name FROM access_levels al WHERE al.sort_order = c.vod_access_level) AS name,
  coalesce(c.client_status, 'Pending') AS client_status, c.first_login, c.admin_updated_expiration`;

/** A timestamp column that may hold ±infinity (an invalid Date; isoOrNull makes it null). */
export const Moment = timestamp;

/** A client as CLIENT_COLUMNS reads it (rows.ts makes the API's Client of it). */
export const ClientRow = z.object({
  _id: z.number(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email_address: z.string().nullable(),
  mb_client_id: z.string().nullable(),
  mb_site_id: z.number().nullable(),
  vod_access_level: z.number().nullable(),
  name: z.string().nullable(),
  client_status: z.string(),
  first_login: Moment.nullable(),
  admin_updated_expiration: Moment.nullable(),
});
export type ClientRow = z.infer<typeof ClientRow>;

/** A page's row: the client, its sort key as text (the next cursor's value) and, when gathered, how many match. */
const PageRow = ClientRow.extend({ sort_value: z.string(), matching: z.number().optional() });

/** Which clients: one of the four lists, narrowed by the caller's filter, at a moment. */
export interface Selection {
  listId: ClientListId;
  filter: ClientFilter;
  now: Date;
}

export interface ListRequest extends Selection {
  sort: ClientSortField;
  order: 'ASC' | 'DESC';
  page: number;
  perPage: number;
  after?: Cursor;
}

export interface BuiltQuery {
  text: string;
  params: unknown[];
}

/** The WHERE clause of a list's own rule and the caller's filter: shared by the page query and the counts. */
export const selectionWhere = (selection: Selection): Where => clientFilterWhere([LIST_RULES[selection.listId], selection.filter], selection.now);

/**
 * How a page finds its rows. `walk`: along the sort index from the start (or the cursor), keeping
 * the rows that match, until it has the page; cheap while many rows match. `gather`: first every
 * matching row through the filters' own indexes, then sorted; cheap while few match, and it counts
 * them on the way (lists.ts chooses by the planner's estimate).
 */
export type PagePlan = 'walk' | 'gather';

/**
 * One page, one row more than asked (to know whether a next page exists). The inner query picks
 * the ids, by keyset after a cursor or by offset; only those rows are read in full.
 */
export function pageQuery(request: ListRequest, plan: PagePlan = 'walk'): BuiltQuery {
  const { expr, type } = SORT_KEYS[request.sort];
  const where = selectionWhere(request);
  const direction = request.order === 'DESC' ? 'DESC' : 'ASC';
  const cursor = request.after;
  const keyset = (key: string, id: string) =>
    cursor ? `(${key}, ${id}) ${direction === 'ASC' ? '>' : '<'} (${where.param(cursor.value)}::${type}, ${where.param(cursor.id)}::bigint)` : undefined;
  const offset = cursor ? 0 : (request.page - 1) * request.perPage;
  let ids: string;
  let gathered = '';
  if (plan === 'walk') {
    const after = keyset(expr, 'c.id');
    if (after) where.parts.push(after);
    ids = `SELECT c.id, ${expr} AS sort_key FROM clients c ${where} ORDER BY ${expr} ${direction}, c.id ${direction}`;
  } else {
    // A materialized CTE is planned on its own, by its filters, never along the sort index; it holds
    // every match, so the page counts them too.
    gathered = `WITH matching AS MATERIALIZED (SELECT c.id, ${expr} AS sort_key FROM clients c ${where}) `;
    const after = keyset('sort_key', 'id');
    ids = `SELECT id, sort_key FROM matching ${after ? `WHERE ${after}` : ''} ORDER BY sort_key ${direction}, id ${direction}`;
  }
  const limit = where.param(request.perPage + 1);
  const skip = where.param(offset);
  return {
    text: `${gathered}SELECT ${CLIENT_COLUMNS}, page.sort_key::text AS sort_value${plan === 'gather' ? ', (SELECT count(*) FROM matching)::int AS matching' : ''}
      FROM (${ids} LIMIT ${limit} OFFSET ${skip}) AS page
      JOIN clients c ON c.id = page.id
      ORDER BY page.sort_key ${direction}, page.id ${direction}`,
    params: where.params,
  };
}

/** Counts at most EXACT_TOTAL_CAP + 1 matching rows: cheap however large the list is. */
export function cappedCountQuery(selection: Selection): BuiltQuery {
  const where = selectionWhere(selection);
  return {
    text: `SELECT count(*)::int AS n FROM (SELECT 1 FROM clients c ${where} LIMIT ${EXACT_TOTAL_CAP + 1}) AS capped`,
    params: where.params,
  };
}

/** The planner's row estimate for a selection; parameters are inlined because EXPLAIN takes none. */
export const estimateQuery = (selection: Selection): string => `EXPLAIN (FORMAT JSON) SELECT 1 FROM clients c ${selectionWhere(selection).inlined()}`;

/** The whole list without paging (what the spec's console asks for), capped at `cap` rows. */
export function unpagedQuery(listId: ClientListId, now: Date, cap: number): BuiltQuery {
  const where = selectionWhere({ listId, filter: {}, now });
  return {
    text: `SELECT ${CLIENT_COLUMNS} FROM clients c ${where} ORDER BY c.id LIMIT ${where.param(cap + 1)}`,
    params: where.params,
  };
}

export const pagingDefaults = { sort: '_id' as ClientSortField, order: 'ASC' as const, page: 1, perPage: DEFAULT_PER_PAGE };

/** The rows of a page query (pageQuery). */
export const pageRows = (database: Queryable, built: BuiltQuery) => database.rows(PageRow, built.text, built.params);

/** The rows of the unpaged list (unpagedQuery). */
export const unpagedRows = (database: Queryable, built: BuiltQuery) => database.rows(ClientRow, built.text, built.params);

const Count = z.object({ n: z.number() });

/** How many clients a selection holds, counted up to EXACT_TOTAL_CAP + 1. */
export async function cappedCount(database: Queryable, selection: Selection): Promise<number> {
  const counted = cappedCountQuery(selection);
  const [row] = await database.rows(Count, counted.text, counted.params);
  return row!.n;
}

/** EXPLAIN's JSON answer (json: parsed by both drivers; kept as text it would be a string). */
const Plan = z.object({ 'QUERY PLAN': z.unknown() });

/** How many clients the planner expects a selection to hold (no counting). */
export async function plannerEstimate(database: Queryable, selection: Selection): Promise<number> {
  const [plan] = await database.rows(Plan, estimateQuery(selection));
  const raw = plan!['QUERY PLAN'];
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[];
  return Math.round(parsed[0]!.Plan['Plan Rows']);
}
