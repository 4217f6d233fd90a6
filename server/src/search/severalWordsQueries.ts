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
