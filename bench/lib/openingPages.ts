import os from 'node:os';
import type { Browser, Page } from 'playwright-core';
import type { BenchClient } from './client';
import { signedInContext } from './browser';

/**
 * What a page shows first once its data is there: a row of a table, a loaded figure of the
 * dashboard. A page with neither (a form, an empty list) counts everything it fetched until its
 * network has gone quiet, its lazy parts included: an upper bound.
 */
export const FIRST_CONTENT = ['main table tbody tr td', 'main [data-stat-state="loaded"]'].join(', ');

export interface OpeningPageBytes {
  path: string;
  /** Scripts (brotli, as the server sent them) the browser began to fetch before the page's first content. */
  kb: number;
  /** 'content': the first row (or figure) appeared; 'quiet': none did in 8 s, counted until the network was quiet. */
  until: 'content' | 'quiet';
  /** The machine's 1-minute load average right after this page was measured. */
  load: number;
}

// In the page from its first byte: the moment the first content appears, by a mutation observer
// (a polling wait would notice it later, after the page may have started fetching its lazy parts).
// A string, not a function: tsx names the functions it compiles with a helper the page lacks.
const watchFirstContent = (selector: string) => `
  new MutationObserver(() => {
    if (window.__firstContentAt === undefined && document.querySelector(${JSON.stringify(selector)})) window.__firstContentAt = performance.now();
  }).observe(document, { childList: true, subtree: true, attributes: true });
`;

/** Script bytes (encoded, as transferred) of the resources the page began to fetch by `until` (ms, the page's clock). */
const scriptBytesBefore = (page: Page) =>
  page.evaluate(() => {
    const until = (window as unknown as { __firstContentAt?: number }).__firstContentAt ?? Infinity;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => /\.m?js(\?|$)/.test(entry.name) && entry.startTime <= until)
      .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize, 0);
  });

/** The sidebar's entries for the bench's staff, as links of the signed-in console's navigation. */
export async function sidebarPaths(browser: Browser, client: BenchClient): Promise<string[]> {
  const context = await signedInContext(browser, client);
  try {
    const page = await context.newPage();
    await page.goto(`${client.url}/dashboard`);
    await page.waitForSelector('nav[aria-label="Main"] a[href]', { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const hrefs = await page.$$eval('nav[aria-label="Main"] a[href]', (links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    return [...new Set(hrefs)];
  } finally {
    await context.close();
  }
}

/**
 * Each page opened cold (a new context: empty cache) at desktop size: the JavaScript it fetched
 * before its first content showed.
 */
export async function measureOpeningPages(browser: Browser, client: BenchClient, paths: string[]): Promise<OpeningPageBytes[]> {
  const out: OpeningPageBytes[] = [];
  for (const path of paths) {
    const context = await signedInContext(browser, client);
    try {
      const page = await context.newPage();
      await page.addInitScript(watchFirstContent(FIRST_CONTENT));
      await page.goto(`${client.url}${path}`);
      let until: OpeningPageBytes['until'] = 'content';
      try {
        await page.waitForFunction(() => (window as unknown as { __firstContentAt?: number }).__firstContentAt !== undefined, undefined, { timeout: 8_000 });
      } catch {
        until = 'quiet';
        await page.waitForLoadState('networkidle');
      }
      const bytes = await scriptBytesBefore(page);
      out.push({ path, kb: Math.round((bytes / 1024) * 10) / 10, until, load: os.loadavg()[0]! });
    } finally {
      await context.close();
    }
  }
  return out;
}
