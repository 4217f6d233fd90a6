import type { Locator, Page } from 'playwright-core';
import { SEARCH_DEBOUNCE_MS } from '../../src/search/searchRules';
import { launchBenchBrowser, signedInContext } from './browser';
import type { BenchClient } from './client';
import { armKeystrokeProbe, keystrokeProbeResult, type KeystrokeTiming } from './keystrokeProbe';
import { distribution, type Distribution } from './stats';

const LIST_ID = 'customer-search-results';
/** A brisk typist: every key lands well inside the debounce, so only the whole query is searched. */
const KEY_DELAY_MS = 60;

export interface SearchWidgetFigures {
  /** Last keystroke to the painted hits, less the spec's debounce. */
  beyondDebounceMs: Distribution;
  /** Where that goes: the debounce timer's lateness and the widget's work until the request leaves, */
  requestLeavesMs: Distribution;
  /** the request on the wire (sent to answered, server included), */
  wireMs: Distribution;
  /** and the answer to the painted hits. */
  answerToPaintMs: Distribution;
  samplesWithoutHits: number;
  /** Searches that ended in the widget's error line (a failed or timed-out request): not timed. */
  failedSearches: number;
  /** Typing that took longer than the debounce (a very busy machine) searched a partial query: not timed. */
  searchedWhileTyping: number;
}

/**
 * The sidebar's customer search in headless Chromium: types each query into the box of one warm
 * page and times, in the page, its last keystroke to the painted hits. The search client keeps
 * the answers it got, so a page types each query once; more samples than queries open a new page.
 */
export async function measureSearchWidget(client: BenchClient, queries: string[], samples: number, warmUp: string): Promise<SearchWidgetFigures> {
  const browser = await launchBenchBrowser();
  const timings: KeystrokeTiming[] = [];
  let failedSearches = 0;
  let searchedWhileTyping = 0;
  try {
    const context = await signedInContext(browser, client);
    // Avatars come from Gravatar: measure this machine, not the internet (the offline silhouette shows).
    const origin = new URL(client.url).origin;
    await context.route(
      (url) => url.origin !== origin,
      (route) => route.abort(),
    );
    for (let pages = 0; timings.length < samples; pages++) {
      if (pages === Math.ceil(samples / queries.length) + 2)
        throw new Error(`${failedSearches} searches failed, ${searchedWhileTyping} ran while typing: too few to time`);
      const page = await context.newPage();
      const box = await openSearchWidget(page, client.url);
      await typeAndTime(page, box, warmUp);
      for (const query of queries.slice(0, samples - timings.length)) {
        const timing = await typeAndTime(page, box, query).catch((error: Error) => {
          throw new Error(`query '${query}': ${error.message}`);
        });
        if (timing.failed) failedSearches++;
        else if (timing.requests.some((request) => request.sentAt < timing.keyAt)) searchedWhileTyping++;
        else if (timing.requests.length !== 1) throw new Error(`query '${query}' sent ${timing.requests.length} search requests after its last key, not 1`);
        else timings.push(timing);
      }
      await page.close();
    }
  } finally {
    await browser.close();
  }
  const request = (t: KeystrokeTiming) => t.requests[0]!;
  return {
    beyondDebounceMs: distribution(timings.map((t) => t.paintedAt - t.keyAt - SEARCH_DEBOUNCE_MS)),
    requestLeavesMs: distribution(timings.map((t) => request(t).sentAt - t.keyAt - SEARCH_DEBOUNCE_MS)),
    wireMs: distribution(timings.map((t) => request(t).answeredAt - request(t).sentAt)),
    answerToPaintMs: distribution(timings.map((t) => t.paintedAt - request(t).answeredAt)),
    samplesWithoutHits: timings.filter((t) => t.hits === 0).length,
    failedSearches,
    searchedWhileTyping,
  };
}

/** The console with the search widget loaded (it loads on focus), its list open. */
async function openSearchWidget(page: Page, url: string): Promise<Locator> {
  await page.goto(`${url}/`);
  const box = page.locator(`input[aria-controls="${LIST_ID}"]`);
  await box.click({ timeout: 30_000 });
  await page.waitForSelector('form[role="search"][data-ready="true"]', { timeout: 30_000 });
  return box;
}

/** Empties the box, waits for the empty query's hits, types the query and waits for its answer. */
async function typeAndTime(page: Page, box: Locator, query: string): Promise<KeystrokeTiming> {
  if (await box.inputValue()) await page.getByRole('button', { name: 'Clear the search query' }).click();
  await box.focus();
  await page.waitForFunction(
    (id) => {
      const list = document.getElementById(id);
      return Boolean(list?.querySelector('[role="option"]')) && !list?.querySelector('mark') && !list?.parentElement?.querySelector('[role="alert"]');
    },
    LIST_ID,
    { timeout: 15_000 },
  );
  await page.evaluate(armKeystrokeProbe, LIST_ID);
  await box.pressSequentially(query, { delay: KEY_DELAY_MS });
  return page.evaluate(keystrokeProbeResult);
}
