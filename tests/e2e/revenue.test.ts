import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser, screenshotDir, signInPage, type RunningServer } from '../support/e2e';
import { poll, seriousAxeFindings, sidewaysOverflow } from '../support/screens';

/** The Revenue area on the demo data set's three years of RevenueCat events, in Chromium. */
describe('Revenue area in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser()), 600_000);
  afterAll(() => closeServerAndBrowser(server, browser));

  for (const width of [1440, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`reads at ${width} px, ${scheme}: every chart with its table, no serious axe finding, nothing sideways`, { timeout: 300_000 }, async () => {
        const page = await signInPage(browser, server, { width, height: 900, colorScheme: scheme });
        await page.goto(`${server.url}/revenue`);
        for (const name of [
          'MRR over time',
          'MRR movement',
          'Trial → paid conversion',
          'Subscriber churn',
          'Revenue',
          'Cancellation reasons',
          'Paying cohorts',
          'Activity cohorts',
        ]) {
          await poll(() => page.getByRole('region', { name, exact: true }).isVisible(), name).toBe(true);
        }
        await poll(() => page.getByRole('region', { name: 'MRR movement as a table' }).getByRole('table').isVisible()).toBe(true);
        expect(await seriousAxeFindings(page)).toEqual([]);
        expect(await sidewaysOverflow(page)).toBe(0);
        await page.screenshot({ path: path.join(screenshotDir, `revenue-${width}-${scheme}.png`), fullPage: true });
        await page.context().close();
      });
    }
  }

  it('a figure opens the client list of exactly its clients, and the dashboard shows MRR', async () => {
    const page = await signInPage(browser, server);
    await page.goto(`${server.url}/revenue`);
    const movement = page.getByRole('region', { name: 'MRR movement as a table' });
    const churned = movement.getByRole('row').nth(1).getByRole('link').nth(3);
    await churned.click();
    await page.waitForURL(/\/clients\/all/);
    expect(decodeURIComponent(page.url())).toContain('"revenue_figure":"churned"');
    await page.goto(`${server.url}/`);
    await poll(() => page.getByRole('heading', { name: 'MRR', exact: true }).isVisible()).toBe(true);
    await poll(() => page.getByRole('link', { name: 'Open Revenue' }).isVisible()).toBe(true);
    await poll(() => page.getByRole('img', { name: 'MRR' }).isVisible()).toBe(true);
    await page.screenshot({ path: path.join(screenshotDir, 'revenue-dashboard-1440-light.png'), fullPage: true });
    await page.context().close();
  });
});
