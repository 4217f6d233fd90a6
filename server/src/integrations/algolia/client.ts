import { backoffMs as backoffFor, retrying, sleep as pause, type Sleep } from '../../lib/retry';
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
  /** The longest Retry-After honoured; a longer one is cut to it. */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
  sleep?: Sleep;
  random?: () => number;
}

// A move or a copy replaces the destination's settings, synonyms and rules unless a scope limits it
// to them (Algolia's "Copy or move an index" page; docs/search.md).
const CONFIGURATION_SCOPE = ['settings', 'synonyms', 'rules'];
// Long enough for a copy or move of a large index; polls back off to every 5 s.
const TASK_POLLS = 200;
const TASK_POLLING = { firstMs: 100, maxMs: 5_000, jitter: [1, 1] } as const;
const MAX_BACKOFF_MS = 30_000;
// Algolia's 429s ask for seconds; a reindex waits at most this long per answer.
const MAX_RETRY_AFTER_MS = 60_000;

/** Algolia's documented write hosts (algoliasearch-client-javascript's transporter; docs/search.md). */
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
  const sleep = options.sleep ?? pause;

  function call(path: string, body?: unknown, method: 'POST' | 'GET' | 'DELETE' = 'POST'): Promise<unknown> {
    return retrying<unknown, string>(
      {
        attempts: maxAttempts,
        timeoutMs,
        backoff: { firstMs: backoffMs, maxMs: MAX_BACKOFF_MS },
        maxWaitMs: options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS,
        fetch: options.fetch,
        sleep,
        random: options.random,
      },
      {
        // Each attempt goes to the next host in turn.
        prepare: (attempt) => ({
          url: `${hosts[(attempt - 1) % hosts.length]!}${path}`,
          init: {
            method,
            headers: {
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
              accept: 'application/json',
              'x-algolia-application-id': options.appId,
              'x-algolia-api-key': options.adminKey,
            },
            body: body === undefined ? undefined : JSON.stringify(body),
          },
        }),
        classify: (response, text) => {
          if (response.ok) {
            try {
              return { done: text ? JSON.parse(text) : {} };
            } catch {
              return { retry: `${response.status} with an answer that is not JSON` };
            }
          }
          const message = (() => {
            try {
              return (JSON.parse(text) as { message?: string }).message ?? text;
            } catch {
              return text;
            }
          })();
          if (response.status === 429) return { retry: `rate limited (429): ${message}` };
          if (response.status >= 500) return { retry: `${response.status}: ${message}` };
          return { fail: new AlgoliaError(`Algolia refused ${path} (${response.status}): ${message}`, response.status) };
        },
        unreachable: (error, timedOut) => (timedOut ? `timed out after ${timeoutMs} ms` : error.message),
        giveUp: (last, { attempts }) => {
          throw new AlgoliaError(`Algolia unreachable after ${attempts} attempts: ${last}`);
        },
      },
    );
  }

  const indexPath = (indexName: string) => `/1/indexes/${encodeURIComponent(indexName)}`;

  /** Index operations run as tasks; the next step must not start before this one is live. */
  async function waitForTask(indexName: string, answer: unknown) {
    const taskID = (answer as { taskID?: unknown } | null)?.taskID;
    if (typeof taskID !== 'number') return;
    for (let poll = 0; poll < TASK_POLLS; poll++) {
      const task = (await call(`${indexPath(indexName)}/task/${taskID}`, undefined, 'GET')) as { status?: string };
      if (task.status === 'published') return;
      await sleep(backoffFor(TASK_POLLING, poll + 1));
    }
    throw new AlgoliaError(`Algolia task ${taskID} on ${indexName} was not published after ${TASK_POLLS} checks`);
  }

  /** A missing index is not an error where there is nothing to carry over or remove. */
  const unlessMissing = (error: unknown) => {
    if (error instanceof AlgoliaError && error.status === 404) return null;
    throw error;
  };

  return {
    mode: 'algolia',
    async batch(indexName: string, changes: IndexChange[]) {
      if (changes.length === 0) return;
      await call(`/1/indexes/${encodeURIComponent(indexName)}/batch`, { requests: changes });
    },
    async replaceIndex(fromIndex: string, toIndex: string) {
      await waitForTask(fromIndex, await call(`${indexPath(fromIndex)}/operation`, { operation: 'move', destination: toIndex }));
    },
    async deleteIndex(indexName: string) {
      await waitForTask(indexName, await call(indexPath(indexName), undefined, 'DELETE').catch(unlessMissing));
    },
    async copyConfiguration(fromIndex: string, toIndex: string) {
      const answer = await call(`${indexPath(fromIndex)}/operation`, { operation: 'copy', destination: toIndex, scope: CONFIGURATION_SCOPE }).catch(
        unlessMissing,
      );
      await waitForTask(fromIndex, answer);
    },
  };
}
