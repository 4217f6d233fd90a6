import { z } from 'zod';
import type { Database } from '../db/client';
import { EXACT, PREFIX, TYPO, type MatchKind } from './ranking';
import { wordBits } from './text';

/**
 * The SQL pieces of a several-word search (severalWords.ts): reads of one word's index rows in rank
 * order, and per-candidate tests of the other words (migration 0026's sig, then index probes).
 */
const RANK = 's.field, s.sort_key, s.client_id';

/** One query word and the forms it can match a client word in. */
export interface WordPlan {
  word: string;
  hi: string;
  /** A known word: some client has it whole. */
  known: boolean;
  /** Known words it starts (itself excluded), when at most MAX_EXPANSIONS (severalWords.ts); null when more. */
  expansions: string[] | null;
  /** Known words one edit away that it does not start. */
  typos: string[];
  kinds: MatchKind[];
  /** Estimated index rows per kind, to pick the cheapest word to read from. */
  rows: Record<MatchKind, number>;
}

/** Builds a statement's parameters, naming each once. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const probe = (condition: string) => `EXISTS (SELECT 1 FROM search_words o WHERE o.client_id = s.client_id AND (${condition}) OFFSET 0)`;
const wholeWord = (plan: WordPlan, params: Params) => `o.word = ${params.add(plan.word)}`;
const startedWord = (plan: WordPlan, params: Params, from: '>' | '>=') => `o.word ${from} ${params.add(plan.word)} AND o.word < ${params.add(plan.hi)}`;
const typoWord = (plan: WordPlan, params: Params) => `o.word = ANY(${params.add(plan.typos)}::text[])`;

/**
 * The client `s.client_id` has a word `plan`'s word matches as `kind` (undefined: in any kind).
 * Each test is an index probe into search_words (client_id, word); OFFSET 0 keeps it one (a planner
 * misjudging a word's rows would otherwise hash every client of it first).
 */
export function matchesAs(plan: WordPlan, kind: MatchKind | undefined, params: Params): string {
  if (kind === undefined) {
    const forms = [
      ...(plan.kinds.some((k) => k !== TYPO) ? [`(${startedWord(plan, params, '>=')})`] : []),
      ...(plan.kinds.includes(TYPO) ? [typoWord(plan, params)] : []),
    ];
    return probe(forms.join(' OR '));
  }
  const positive = probe(kind === EXACT ? wholeWord(plan, params) : kind === PREFIX ? startedWord(plan, params, '>') : typoWord(plan, params));
  return [positive, ...noBetterMatch(plan, kind, params)].join(' AND ');
}

/** The client has no better match for `plan`'s word than `kind`: each client is in one group only. */
export function noBetterMatch(plan: WordPlan, kind: MatchKind, params: Params): string[] {
  if (kind === PREFIX && plan.known) return [`NOT ${probe(wholeWord(plan, params))}`];
  if (kind === TYPO && plan.kinds.some((k) => k !== TYPO)) return [`NOT ${probe(startedWord(plan, params, '>='))}`];
  return [];
}

/** A client lacking the sig bits (migration 0026) of every form of the word is passed over unprobed. */
export function sigTest(plan: WordPlan, kind: MatchKind | undefined, params: Params): string {
  const forms = kind === TYPO ? plan.typos : kind === undefined ? [plan.word, ...(plan.kinds.includes(TYPO) ? plan.typos : [])] : [plan.word];
  const tests = [...new Set(forms.map((form) => wordBits(form).toString()))].map((bits) => {
    const name = params.add(bits);
    return `(s.sig & ${name}::bigint) = ${name}::bigint`;
  });
  return `(${tests.join(' OR ')})`;
}

/**
 * The driving word's rows of one kind in rank order, each form read in index order with `limit`
 * (null: no order, for counting) and `filter` applied before the limit.
 */
export function driverRows(plan: WordPlan, kind: MatchKind, filter: string, limit: string | null, params: Params): string {
  const order = limit ? `ORDER BY ${RANK} LIMIT ${limit}` : '';
  const columns = 's.client_id, s.field, s.sort_key, s.sig';
  if (kind === EXACT) return `SELECT ${columns} FROM search_words s WHERE s.word = ${params.add(plan.word)} AND ${filter} ${order}`;
  if (kind === PREFIX && [...plan.word].length <= 2)
    return `SELECT ${columns} FROM search_prefixes s WHERE s.prefix = ${params.add(plan.word)} AND ${filter} ${order}`;
  if (kind === PREFIX && plan.expansions === null) {
    return `SELECT ${columns} FROM search_words s WHERE s.word > ${params.add(plan.word)} AND s.word < ${params.add(plan.hi)} AND ${filter} ${order}`;
  }
  const forms = kind === PREFIX ? plan.expansions! : plan.typos;
  return `SELECT m.client_id, m.field, m.sort_key, m.sig FROM unnest(${params.add(forms)}::text[]) AS x (word)
          CROSS JOIN LATERAL (SELECT ${columns} FROM search_words s WHERE s.word = x.word AND ${filter} ${order}) m`;
}

/** The first `limitParam` rows of `driverSql` in rank order, each tagged with its combination. */
export const taggedRead = (tag: number, driverSql: string, limitParam: string) =>
  `(SELECT ${tag} AS tag, client_id, field, sort_key FROM (${driverSql}) t
           ORDER BY field, sort_key, client_id LIMIT ${limitParam})`;

/** One row, tag -1: of the first `scan` rows of `sources`, how many were read (client_id) and how many clients pass `matched` (field). */
export const countingRead = (matched: string, sources: string[], scan: number) =>
  `(SELECT -1 AS tag, count(*) AS client_id, count(DISTINCT client_id) FILTER (WHERE matched) AS field, ''::text COLLATE "C" AS sort_key
               FROM (SELECT s.client_id, (${matched}) AS matched FROM (SELECT * FROM (${sources.join(' UNION ALL ')}) d LIMIT ${scan}) s) c)`;

const VocabRow = z.object({ i: z.number(), word: z.string() });
/** A read's rows by tag (the count's row is tag -1: rows scanned as client_id, clients matching as field). */
const TaggedRow = z.object({ tag: z.number(), client_id: z.number(), field: z.number(), sort_key: z.string() });

/**
 * Per query word (i from 1), the known words it starts, itself included, at most `limit` each; and
 * (i 0) the known words among `candidates`, given as one comma-separated string (words hold no ASCII
 * punctuation, and PGlite reads one string much faster than an array of hundreds).
 */
export async function vocabOfWords(database: Database, words: string[], his: string[], candidates: string, limit: number) {
  return database.rows(
    VocabRow,
    `SELECT x.i, v.word FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x (w, hi, i)
     CROSS JOIN LATERAL (SELECT word FROM search_vocab WHERE word >= x.w AND word < x.hi ORDER BY word LIMIT ${limit}) v
     UNION ALL SELECT 0, word FROM search_vocab WHERE word = ANY(string_to_array($3, ','))`,
    [words, his, candidates],
  );
}

/** Runs the reads made with these pieces (combinationSql, countRead), joined by UNION ALL, as one statement. */
export async function taggedRows(database: Database, reads: string[], params: Params) {
  return database.rows(TaggedRow, reads.join(' UNION ALL '), params.values);
}
