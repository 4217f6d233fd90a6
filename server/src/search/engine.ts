import { CUSTOMERS_INDEX, PAGINATION_LIMIT, VIDEOS_INDEX, type HighlightResult, type SearchResult } from '@contract/search';
import type { Database } from '../db/client';
import { clientsById, clientsByName, clientsEstimate } from './customerQueries';
import { matchCustomers } from './customers';
import { encodeParams, type SearchParams } from './params';
import { highlight, queryWords } from './text';
import { videoMatches } from './videoQueries';

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
    const rows = await clientsByName(database, from, to - from);
    const nbHits = Math.max(await clientsEstimate(database), from + rows.length);
    return { records: rows.map(customerRecord), nbHits, exhaustive: false, typo: false };
  }
  const matches = await matchCustomers(database, params.query, words, to, params.typoTolerance);
  const ids = matches.ranked.slice(from, to).map((m) => m.client_id);
  const rows = ids.length ? await clientsById(database, ids) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
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
  const rows = await videoMatches(database, words, from, Math.max(1, to - from));
  const records = rows.slice(0, to - from).map(videoRecord);
  const nbHits = rows.length ? rows[0]!.total : from > 0 ? (await videoPage(database, words, 0, 1)).nbHits : 0;
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
