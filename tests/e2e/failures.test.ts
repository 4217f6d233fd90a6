import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser, screenshot, signInPage, type RunningServer } from '../support/e2e';
import { DEMO_CLIENT, heading, poll } from '../support/screens';

const fail = (status = 500) => ({ status, contentType: 'application/json', body: JSON.stringify({ message: 'The server had a problem' }) });

/** Calls forced to fail with page.route: the console says so, with a way to try again, and never shows the failure as data. */
describe('failures in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ server, browser } = await openServerAndBrowser());
    page = await signInPage(browser, server);
  });
  afterAll(() => closeServerAndBrowser(server, browser));

  it('says the dashboard figures could not be computed when stats fail, and loads them on Try again', async () => {
    await page.route('**/api/stats/v1', (route) => route.fulfill(fail()));
    await page.goto(`${server.url}/`);
    await poll(() => page.locator('[data-stat-state="failed"]').count()).toBe(3);
    expect(await page.getByText('Could not be computed', { exact: true }).count()).toBe(3);
    for (const placeholder of ['71,887', 'Warm-up']) expect(await page.getByText(placeholder, { exact: true }).count()).toBe(0);
    // No card spins on (the app bar's indicator may still turn for the trends, asked beside the figures).
    expect(await page.locator('[data-stat-state]').getByRole('progressbar').count()).toBe(0);
    const alert = page.getByRole('alert').filter({ hasText: 'The figures could not be computed' });
    await poll(() => alert.isVisible()).toBe(true);
    await screenshot(page, 'failure-stats');
    await page.unroute('**/api/stats/v1');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await poll(() => page.locator('[data-stat-state="loaded"]').count()).toBe(3);
  });

  it.each([
    ['Purchase History', '**/purchases?*', 'View Purchase History', 'No purchases were found.'],
    ['MindBody Contracts', '**/contracts', 'View Contracts', 'No contracts were found.'],
    ['Recent Streamed Videos', '**/recently-viewed-videos', 'View Recent Streamed Videos', 'No videos were found.'],
    ['Favorites Videos', '**/favorites-videos', 'View Favorites Videos', 'No records were found.'],
    ['User Debug Info', '**/debug?*', 'View User Debug Info', 'No debug info was found.'],
    ['Recent Push Notifications', '**/api/admin/v1/pushes?*', 'View Recent Push Notifications', 'No push notifications were sent to this client.'],
    ['Automated Messages', '**/automated-messages', 'View Automated Messages', 'No automated messages yet.'],
    ['History', '**/api/admin/v1/audit?*', 'View History', 'No staff actions recorded for this client yet.'],
  ])('says %s failed to load, with a Retry, never its empty text', async (title, pattern, toggle, empty) => {
    await page.route(pattern, (route) => route.fulfill(fail()));
    await page.goto(`${server.url}/client/${DEMO_CLIENT}`);
    const region = page.getByRole('region', { name: title });
    await region.getByRole('button', { name: toggle }).click();
    const alert = region.getByRole('alert');
    await poll(() => alert.textContent()).toContain(`${title} could not be loaded`);
    expect(await region.getByText(empty).count()).toBe(0);
    await page.unroute(pattern);
    await region.getByRole('button', { name: `Retry ${title}` }).click();
    await poll(() => alert.count()).toBe(0);
  });

  it('shows the search error and none of the earlier hits', async () => {
    await page.goto(`${server.url}/`);
    await poll(() => heading(page, 'Dashboard').isVisible()).toBe(true);
    const box = page.getByRole('combobox', { name: 'Search customers' });
    await box.click();
    await poll(() => page.locator('form[role="search"][data-ready="true"]').count()).toBe(1);
    await box.pressSequentially('em', { delay: 40 });
    const options = page.getByRole('listbox', { name: 'Customer search results' }).getByRole('option');
    await poll(() => options.count().then((count) => count > 0)).toBe(true);
    await page.route('**/1/indexes/*/queries*', (route) => route.fulfill(fail()));
    await box.pressSequentially('e', { delay: 40 });
    await poll(() => page.getByRole('alert').filter({ hasText: 'Search failed' }).isVisible()).toBe(true);
    expect(await options.count()).toBe(0);
    await screenshot(page, 'failure-search');
    await page.unroute('**/1/indexes/*/queries*');
    await box.pressSequentially('r', { delay: 40 });
    await poll(() => options.count().then((count) => count > 0)).toBe(true);
  });
});
