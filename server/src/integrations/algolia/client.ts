import { abortableSleep } from '../vimeo/client';
import { parseRetryAfter } from '../vimeo/rateLimit';
import { AlgoliaError, type IndexChange, type SearchIndexer } from './types';

export interface AlgoliaClientOptions {
  appId: string;
  /** The admin key: writes need it; it never leaves the server. */
  adminKey: string;
  /** Base URLs tried in turn; default Algolia's write host, then its three fallbacks. */
  hosts?: string[];
  /** Connect + answer for one call, like Algolia's own clients' write timeout. */
  timeoutMs?: number;
  maxAttempts?: number;
  backoffMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

/** Algolia's documented write hosts (external-apis.md §5). */
export const algoliaWriteHosts = (appId: string) => [
  `https://${appId}.algolia.net`,
  `https://${appId}-1.algolianet.com`,
  `https://${appId}-2.algolianet.com`,
  `https://${appId}-3.algolianet.com`,
];

/**
 * The real Algolia REST API for writes: batches and index moves. 5xx answers, timeouts and network
 * errors go to the next host after a pause (backoff with jitter); a 429 waits for Retry-After; other
 * 4xx are our mistake and fail at once.
 */
export function createAlgoliaClient(options: AlgoliaClientOptions): SearchIndexer {
  const hosts = (options.hosts ?? algoliaWriteHosts(options.appId)).map((host) => host.replace(/\/+$/, ''));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxAttempts = options.maxAttempts ?? 6;
  const backoffMs = options.backoffMs ?? 500;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const never = new AbortController().signal;

  async function call(path: string, body: unknown): Promise<unknown> {
    let lastError = 'no attempt made';
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const host = hosts[attempt % hosts.length]!;
      let waitAtLeast = 0;
      try {
        const response = await doFetch(`${host}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-algolia-application-id': options.appId,
            'x-algolia-api-key': options.adminKey,
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await response.text();
        if (response.ok) return text ? JSON.parse(text) : {};
        const message = (() => {
          try {
            return (JSON.parse(text) as { message?: string }).message ?? text;
          } catch {
            return text;
          }
        })();
        if (response.status === 429) {
          const until = parseRetryAfter(response.headers.get('retry-after'), Date.now());
          waitAtLeast = until === null ? 0 : Math.max(0, until - Date.now());
          lastError = `rate limited (429): ${message}`;
        } else if (response.status >= 500) {
          lastError = `${response.status}: ${message}`;
        } else {
          throw new AlgoliaError(`Algolia refused ${path} (${response.status}): ${message}`, response.status);
        }
      } catch (error) {
        if (error instanceof AlgoliaError) throw error;
        lastError = (error as Error).name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : (error as Error).message;
      }
      if (attempt + 1 < maxAttempts) {
        const backoff = backoffMs * 2 ** attempt * (0.8 + random() * 0.4);
        await sleep(Math.max(waitAtLeast, backoff), never);
      }
    }
    throw new AlgoliaError(`Algolia unreachable after ${maxAttempts} attempts: ${lastError}`);
  }

  return {
    mode: 'algolia',
    async batch(indexName: string, changes: IndexChange[]) {
      if (changes.length === 0) return;
      await call(`/1/indexes/${encodeURIComponent(indexName)}/batch`, { requests: changes });
    },
    async replaceIndex(fromIndex: string, toIndex: string) {
      await call(`/1/indexes/${encodeURIComponent(fromIndex)}/operation`, { operation: 'move', destination: toIndex });
    },
  };
}
