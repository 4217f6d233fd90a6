import {
  DAY_MS,
  DEFAULT_PER_PAGE,
  EXACT_TOTAL_CAP,
  NEW_CLIENT_WINDOW_DAYS,
  type ClientListId,
  type ClientSortField,
} from '../../../contract/clients';
import { badRequest } from '../lib/errors';

/**
 * Sort keys, written exactly as the expression indexes of migrations/0003_clients_indexes.sql so
 * that ORDER BY and keyset comparisons are index range scans. `type` casts a cursor value back.
 */
const SORT_KEYS: Record<ClientSortField, { expr: string; type: 'bigint' | 'int' | 'text' | 'timestamptz' }> = {
  _id: { expr: 'c.id', type: 'bigint' },
  first_name: { expr: "lower(coalesce(c.first_name, ''))", type: 'text' },
  last_name: { expr: "lower(coalesce(c.last_name, ''))", type: 'text' },
  email_address: { expr: "lower(coalesce(c.email_address, ''))", type: 'text' },
  vod_access_level: { expr: 'coalesce(c.vod_access_level, 0)', type: 'int' },
  client_status: { expr: "coalesce(c.client_status, 'Pending')", type: 'text' },
  first_login: { expr: "coalesce(c.first_login, '-infinity'::timestamptz)", type: 'timestamptz' },
};

const QUICK_FILTER_EXPR =
  "lower(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '') || ' ' || coalesce(c.email_address, ''))";

export const CLIENT_COLUMNS = `c.id AS "_id", c.first_name, c.last_name, c.email_address, c.mb_client_id, c.mb_site_id,
  c.vod_access_level, (SELECT al.name FROM access_levels al WHERE al.sort_order = c.vod_access_level) AS name,
  coalesce(c.client_status, 'Pending') AS client_status, c.first_login, c.admin_updated_expiration`;

/** Accumulates a WHERE clause and its positional parameters. */
class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];
  param(value: unknown) {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  toString() {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

/** The rule of each list (spec §2), in forms the indexes serve. */
function listFilter(where: Where, listId: ClientListId, now: Date) {
  if (listId === 2) where.parts.push('length(c.mb_client_id) > 2');
  if (listId === 3) where.parts.push("coalesce(c.client_status, 'Pending') = 'Active'");
  if (listId === 4) {
    const cutoff = newClientCutoff(now);
    where.parts.push(`coalesce(c.first_login, '-infinity'::timestamptz) >= ${where.param(cutoff.toISOString())}::timestamptz`);
  }
}

/** First logins at or after this moment are 'New' (the window is inclusive of its first instant). */
export const newClientCutoff = (now: Date) => new Date(now.getTime() - NEW_CLIENT_WINDOW_DAYS * DAY_MS);

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export interface Cursor {
  sort: ClientSortField;
  order: 'ASC' | 'DESC';
  value: string;
  id: number;
}

/** Cursors are signed: a value the SQL casts below could choke on can only come from this server. */
export interface CursorSigner {
  sign(value: string): string;
  /** The signed value, or null when the signature does not match. */
  unsign(signed: string): string | null;
}

const NOT_OURS = 'after is not a cursor this server issued';

export function encodeCursor(cursor: Cursor, signer: CursorSigner): string {
  return signer.sign(Buffer.from(JSON.stringify([cursor.sort, cursor.order, cursor.value, cursor.id])).toString('base64url'));
}

export function decodeCursor(raw: string, sort: ClientSortField, order: 'ASC' | 'DESC', signer: CursorSigner): Cursor {
  const payload = signer.unsign(raw);
  if (payload === null) throw badRequest(NOT_OURS);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(NOT_OURS);
  }
  if (!Array.isArray(parsed) || parsed.length !== 4 || typeof parsed[2] !== 'string' || !Number.isSafeInteger(parsed[3])) {
    throw badRequest(NOT_OURS);
  }
  if (parsed[0] !== sort || parsed[1] !== order) {
    throw badRequest(`after belongs to another sort (${parsed[0]} ${parsed[1]}); send the sort and order of the page it came from`);
  }
  return { sort, order, value: parsed[2], id: parsed[3] };
}

export interface ListRequest {
  listId: ClientListId;
  now: Date;
  sort: ClientSortField;
  order: 'ASC' | 'DESC';
  q?: string;
  page: number;
  perPage: number;
  after?: Cursor;
}

export interface BuiltQuery {
  text: string;
  params: unknown[];
}

/** WHERE clause of a list plus its quick filter: shared by the page query and the count. */
function filters(request: Pick<ListRequest, 'listId' | 'now' | 'q'>) {
  const where = new Where();
  listFilter(where, request.listId, request.now);
  if (request.q) where.parts.push(`${QUICK_FILTER_EXPR} LIKE ${where.param(`%${escapeLike(request.q.toLowerCase())}%`)}`);
  return where;
}

/**
 * One page, one row more than asked (to know whether a next page exists). The inner query picks
 * the ids from the sort index, by keyset after a cursor or by offset; only those rows are read.
 */
export function pageQuery(request: ListRequest): BuiltQuery {
  const { expr, type } = SORT_KEYS[request.sort];
  const where = filters(request);
  const direction = request.order === 'DESC' ? 'DESC' : 'ASC';
  let offset = 0;
  const cursor = request.after;
  if (cursor) {
    const comparison = direction === 'ASC' ? '>' : '<';
    where.parts.push(`(${expr}, c.id) ${comparison} (${where.param(cursor.value)}::${type}, ${where.param(cursor.id)}::bigint)`);
  } else {
    offset = (request.page - 1) * request.perPage;
  }
  const limit = where.param(request.perPage + 1);
  const skip = where.param(offset);
  return {
    text: `SELECT ${CLIENT_COLUMNS}, ${expr}::text AS sort_value
      FROM (SELECT c.id FROM clients c ${where} ORDER BY ${expr} ${direction}, c.id ${direction} LIMIT ${limit} OFFSET ${skip}) AS page
      JOIN clients c ON c.id = page.id
      ORDER BY ${expr} ${direction}, c.id ${direction}`,
    params: where.params,
  };
}

/** Counts at most EXACT_TOTAL_CAP + 1 matching rows: cheap however large the list is. */
export function cappedCountQuery(request: Pick<ListRequest, 'listId' | 'now' | 'q'>): BuiltQuery {
  const where = filters(request);
  return {
    text: `SELECT count(*)::int AS n FROM (SELECT 1 FROM clients c ${where} LIMIT ${EXACT_TOTAL_CAP + 1}) AS capped`,
    params: where.params,
  };
}

/** The planner's row estimate for a list; parameters are inlined because EXPLAIN takes none. */
export function estimateQuery(request: Pick<ListRequest, 'listId' | 'now' | 'q'>): string {
  const where = filters(request);
  const literal = (value: unknown) => `'${String(value).replace(/'/g, "''")}'`;
  const inlined = where.toString().replace(/\$(\d+)/g, (_, n: string) => literal(where.params[Number(n) - 1]));
  return `EXPLAIN (FORMAT JSON) SELECT 1 FROM clients c ${inlined}`;
}

/** The whole list without paging (what the spec's console asks for), capped at `cap` rows. */
export function unpagedQuery(listId: ClientListId, now: Date, cap: number): BuiltQuery {
  const where = new Where();
  listFilter(where, listId, now);
  return {
    text: `SELECT ${CLIENT_COLUMNS} FROM clients c ${where} ORDER BY c.id LIMIT ${where.param(cap + 1)}`,
    params: where.params,
  };
}

export const pagingDefaults = { sort: '_id' as ClientSortField, order: 'ASC' as const, page: 1, perPage: DEFAULT_PER_PAGE };
