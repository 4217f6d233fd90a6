import { RUNTIME_CONFIG_ELEMENT_ID, type RuntimeConfig } from '@contract/search';
import { distribution } from '../lib/stats';
import type { Figure } from '../lib/figures';
import type { BenchClient } from '../lib/client';
import type { BenchCase } from './types';

/**
 * The search budget (bench/README.md): the search endpoint's processingTimeMS at the 95th percentile is at most 15 ms
 * at 1,000,000 customers, for each kind of query a person types. Queries follow the bench data
 * set's names (server/seed/demo.ts): e-mails look like olivia.smith123@gmail.com.
 */
export const SEARCH_QUERIES: Record<string, string[]> = {
  '1 letter': ['a', 'm', 's', 'j', 'o', 'e', 'l', 'c', 'r', 'b', 'w', 'z'],
  '2 letters': ['ma', 'jo', 'el', 'sa', 'li', 'ha', 'ro', 'ca', 'mi', 'an', 'da', 'wi'],
  '3+ letters': ['smith', 'oliv', 'mart', 'will', 'garc', 'jam', 'nguy', 'thomp', 'chloe', 'rodri', 'ben', 'kel'],
  'e-mail fragment': [
    'olivia.smith1',
    'noah.jo',
    'emma.wil',
    'james.garcia12',
    'mia.lee9',
    'ava.brown',
    'liam.davis3',
    'gmail',
    'lucas.m',
    'sofia.r@',
    'henry.clark5',
    'grace.k',
  ],
  // Not among the kinds, held to the same budget: a first name and the start of a surname, typed either way round.
  'several words': [
    'sofia r',
    'emma w',
    'ma j',
    'jo sm',
    'rodriguez sofia',
    'gmail sofia',
    'olivia s',
    'garcia ja',
    'noah 12',
    'james garcia',
    'lucas m',
    'li ha',
  ],
  // Full names shared with near-spellings (Jace Hill, Jack Hall); every group up to the typos is read when exact ones are few.
  'full name': [
    'jack hill',
    'jace hill',
    'olivia smith',
    'emma brown',
    'james garcia',
    'mia lee',
    'noah jones',
    'sofia rodriguez',
    'liam hall',
    'ava hill',
    'lucas martin',
    'ella allen',
  ],
  'one-typo name': ['smtih', 'olivai', 'jonson', 'garica', 'willaims', 'martniez', 'andersen', 'tomas', 'harrsion', 'robinsen', 'jakson', 'mitchel'],
};

/** The application id and search-only key, read from the console page as a browser would. */
export async function searchCredentials(client: BenchClient): Promise<{ appId: string; apiKey: string }> {
  const html = await (await fetch(`${client.url}/`, { headers: { accept: 'text/html', cookie: client.cookie } })).text();
  const match = new RegExp(`id="${RUNTIME_CONFIG_ELEMENT_ID}">([^<]*)<`).exec(html);
  if (!match) throw new Error('the console page carries no search settings (is the console built?)');
  const config = JSON.parse(match[1]!) as RuntimeConfig;
  return { appId: config.algolia?.appId ?? '', apiKey: config.algolia?.searchKey ?? '' };
}

export const searchCase: BenchCase = async ({ client, samples }) => {
  const { appId, apiKey } = await searchCredentials(client);
  const url = `${client.url}/1/indexes/*/queries?x-algolia-application-id=${encodeURIComponent(appId)}&x-algolia-api-key=${encodeURIComponent(apiKey)}`;
  const search = async (query: string) => {
    const started = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', cookie: client.cookie },
      body: JSON.stringify({
        requests: [{ indexName: 'Customers', query, hitsPerPage: 20, highlightPreTag: '__ais-highlight__', highlightPostTag: '__/ais-highlight__' }],
      }),
    });
    const text = await response.text();
    const roundTrip = performance.now() - started;
    if (!response.ok) throw new Error(`search '${query}' → ${response.status}: ${text.slice(0, 200)}`);
    const result = (JSON.parse(text) as { results: { processingTimeMS: number; nbHits: number }[] }).results[0]!;
    return { processing: result.processingTimeMS, roundTrip, nbHits: result.nbHits };
  };

  const figures: Figure[] = [];
  for (const [kind, queries] of Object.entries(SEARCH_QUERIES)) {
    for (const query of queries) await search(query); // warm-up
    const processing: number[] = [];
    const roundTrips: number[] = [];
    let empty = 0;
    for (let i = 0; i < samples; i++) {
      const outcome = await search(queries[i % queries.length]!);
      processing.push(outcome.processing);
      roundTrips.push(outcome.roundTrip);
      if (outcome.nbHits === 0) empty++;
    }
    const server = distribution(processing);
    const trip = distribution(roundTrips);
    figures.push({
      group: 'search',
      name: `processingTimeMS, ${kind} (p95)`,
      unit: 'ms',
      target: { kind: 'max', value: 15 },
      value: server.p95,
      detail: { ...server, queries: queries.join(' '), samplesWithoutHits: empty },
    });
    figures.push({ group: 'search', name: `round trip, ${kind} (p95)`, unit: 'ms', value: trip.p95, detail: { ...trip } });
  }
  return figures;
};
