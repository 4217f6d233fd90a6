import { CUSTOMERS_INDEX, PAGINATION_LIMIT, VIDEOS_INDEX, type HighlightResult, type SearchResult } from '@contract/search';
import type { Database } from '../db/client';
import { matchCustomers } from './customers';
import { encodeParams, type SearchParams } from './params';
import { highlight, queryWords } from './text';

/** An index our endpoint does not hold: Algolia answers 404 "Index does not exist". */
export class UnknownIndexError extends Error {}

type Record_ = Record<string, unknown>;

interface Page {
  records: Record_[];
  nbHits: number;
  exhaustive: boolean;
  typo: boolean;
}

const CUSTOMER_ATTRIBUTES = ['title', 'first_name', 'last_name', 'email_address', 'mb_client_id'];
const VIDEO_ATTRIBUTES = ['title', 'instructor'];

async function customerPage(database: Database, params: SearchParams, words: string[], from: number, to: number): Promise<Page> {
  if (words.length === 0) {
    // An empty query lists everyone by name, as Algolia does; the total is the planner's estimate.
    const rows = await database.query<Record_>(
      `SELECT id, first_name, last_name, email_address, mb_client_id FROM clients
       ORDER BY lower(coalesce(first_name, '')), id OFFSET $1 LIMIT $2`,
      [from, to - from],
    );
    const [estimate] = await database.query<{ n: number }>("SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = 'clients'::regclass");
    const nbHits = Math.max(Number(estimate?.n ?? 0), from + rows.length);
    return { records: rows.map(customerRecord), nbHits, exhaustive: false, typo: false };
  }
  const matches = await matchCustomers(database, params.query, words, to, params.typoTolerance);
  const ids = matches.ranked.slice(from, to).map((m) => m.client_id);
  const rows = ids.length
    ? await database.query<Record_>('SELECT id, first_name, last_name, email_address, mb_client_id FROM clients WHERE id = ANY($1::bigint[])', [ids])
    : [];
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  // A client deleted between the two reads simply drops out.
  const records = ids.flatMap((id) => (byId.has(id) ? [customerRecord(byId.get(id)!)] : []));
  return { records, nbHits: matches.nbHits, exhaustive: matches.exhaustive, typo: matches.typoUsed };
}

export function customerRecord(row: Record_): Record_ {
  const first = (row.first_name as string | null) ?? null;
  const last = (row.last_name as string | null) ?? null;
  return {
    objectID: String(row.id),
    first_name: first,
    last_name: last,
    email_address: row.email_address ?? null,
    mb_client_id: row.mb_client_id ?? null,
    related_pg_id: Number(row.id),
    title: [first, last].filter((part) => part && part.trim()).join(' '),
  };
}

async function videoPage(database: Database, words: string[], from: number, to: number): Promise<Page> {
  // Videos are thousands, not millions: every word as a substring of title or instructor, titles
  // starting with the first word first. The trigram index of migration 0015 serves 3+ letters.
  const like = (word: string) => word.replace(/[\\%_]/g, '\\$&');
  const conditions = words.map((_, i) => `lower(v.title || ' ' || coalesce(v.instructor, '')) LIKE $${i + 4}`);
  const where = ['v.deleted_at IS NULL', ...conditions].join(' AND ');
  const rows = await database.query<Record_>(
    `SELECT v.id, v.title, v.thumbnail_url, v.instructor, count(*) OVER () AS total FROM videos v WHERE ${where}
     ORDER BY lower(v.title) LIKE $3 DESC, lower(v.title), v.id OFFSET $1 LIMIT $2`,
    [from, Math.max(1, to - from), `${like(words[0] ?? '')}%`, ...words.map((word) => `%${like(word)}%`)],
  );
  const records = rows.slice(0, to - from).map(videoRecord);
  const nbHits = rows.length ? Number(rows[0]!.total) : from > 0 ? (await videoPage(database, words, 0, 1)).nbHits : 0;
  return { records, nbHits, exhaustive: true, typo: false };
}

export const videoRecord = (row: Record_): Record_ => ({
  objectID: String(row.id),
  related_pg_id: Number(row.id),
  thumbnail_url: row.thumbnail_url ?? null,
  title: row.title,
  instructor: row.instructor ?? null,
});

function pick(record: Record_, attributes: string[] | undefined): Record_ {
  if (!attributes || attributes.includes('*')) return record;
  return Object.fromEntries(Object.entries(record).filter(([key]) => key === 'objectID' || attributes.includes(key)));
}

/** One query of a multi-query call, answered like Algolia's SearchResponse. */
export async function searchIndex(database: Database, indexName: string, params: SearchParams): Promise<SearchResult> {
  const started = performance.now();
  if (indexName !== CUSTOMERS_INDEX && indexName !== VIDEOS_INDEX) throw new UnknownIndexError(`Index ${indexName} does not exist`);
  const words = queryWords(params.query);
  const { page, hitsPerPage } = params;
  const from = Math.min(page * hitsPerPage, PAGINATION_LIMIT);
  const to = Math.min((page + 1) * hitsPerPage, PAGINATION_LIMIT);
  const read = (a: number, b: number) => (indexName === CUSTOMERS_INDEX ? customerPage(database, params, words, a, b) : videoPage(database, words, a, b));
  // hitsPerPage 0 (InstantSearch's count-only queries) and pages past the limit still learn the count.
  const result = to > from ? await read(from, to) : { ...(await read(0, 1)), records: [] };
  const attributes = indexName === CUSTOMERS_INDEX ? CUSTOMER_ATTRIBUTES : VIDEO_ATTRIBUTES;
  const toHighlight = params.attributesToHighlight?.includes('*') ? attributes : (params.attributesToHighlight ?? attributes);
  const hits = result.records.map((record) => {
    const highlightResult: Record<string, HighlightResult> = {};
    for (const attribute of toHighlight) {
      if (attributes.includes(attribute)) {
        highlightResult[attribute] = highlight((record[attribute] as string | null) ?? null, words, params.highlightPreTag, params.highlightPostTag);
      }
    }
    return { ...pick(record, params.attributesToRetrieve), _highlightResult: highlightResult };
  });
  const reachable = Math.min(result.nbHits, PAGINATION_LIMIT);
  return {
    hits,
    nbHits: result.nbHits,
    page,
    nbPages: hitsPerPage > 0 ? Math.ceil(reachable / hitsPerPage) : 0,
    hitsPerPage,
    processingTimeMS: Math.round(performance.now() - started),
    exhaustiveNbHits: result.exhaustive,
    exhaustive: { nbHits: result.exhaustive, typo: !result.typo || result.exhaustive },
    query: params.query,
    params: encodeParams(params.echo),
    index: indexName,
  };
}
