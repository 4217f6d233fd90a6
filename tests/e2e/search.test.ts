import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshot, signInPage, type RunningServer, closeServerAndBrowser, openServerAndBrowser } from '../support/e2e';

// The machine may be busy: give each wait up to 20 s instead of expect.poll's default second.
const poll = <T>(value: () => Promise<T> | T) => expect.poll(value, { timeout: 20_000, interval: 100 });

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search customers' });
const results = (page: Page) => page.getByRole('listbox', { name: 'Customer search results' }).getByRole('option');
// Focusing the box loads the widget; type once it has replaced the stand-in (keys typed in the
// instant of the swap can be lost: see docs/search.md).
const focusLoadedBox = async (page: Page) => {
  await searchBox(page).click();
  await poll(() => page.locator('form[role="search"][data-ready="true"]').count()).toBe(1);
};

describe('customer search in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser()));
  afterAll(() => closeServerAndBrowser(server, browser));

  it('types a partial name, shows the matching customers with the match highlighted, and opens one', async () => {
    const page = await signInPage(browser, server);
    await poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).isVisible()).toBe(true);
    await focusLoadedBox(page);
    await searchBox(page).pressSequentially('oliv', { delay: 40 });
    await poll(async () => {
      const names = await results(page).locator('.hit-name').allTextContents();
      return names.length > 0 && names.every((name) => /\boliv/i.test(name));
    }).toBe(true);
    await poll(() => results(page).first().locator('mark').first().textContent()).toBe('Oliv');
    const first = results(page).first();
    const name = (await first.locator('.hit-name').textContent())!;
    const href = (await first.getAttribute('href'))!;
    expect(href).toMatch(/^\/client\/\d+\?search=customers$/);
    await page.waitForTimeout(300); // avatars
    await screenshot(page, 'search-results-1440');

    await first.click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === href);
    await poll(() => page.getByText('Client Details').first().isVisible()).toBe(true);
    await poll(() => page.getByText(name.split(' ')[0]!, { exact: true }).first().isVisible()).toBe(true);
    // The list closed behind us.
    expect(await page.getByRole('listbox', { name: 'Customer search results' }).count()).toBe(0);
    await page.context().close();
  });

  it('finds a customer with a one-typo surname and opens it with the keyboard', async () => {
    const page = await signInPage(browser, server);
    await poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).isVisible()).toBe(true);
    await focusLoadedBox(page);
    await searchBox(page).pressSequentially('smtih', { delay: 30 });
    await poll(async () => (await results(page).locator('.hit-name').allTextContents()).some((text) => /smith/i.test(text))).toBe(true);
    await page.keyboard.press('ArrowDown');
    const href = (await results(page).first().getAttribute('href'))!;
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => `${url.pathname}${url.search}` === href);
    await page.context().close();
  });

  it('works at 390 px inside the drawer', async () => {
    const page = await signInPage(browser, server, { width: 390, height: 844 });
    await poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).isVisible()).toBe(true);
    await page
      .getByRole('button', { name: /open menu|toggle|menu/i })
      .first()
      .click();
    await poll(() => searchBox(page).isVisible()).toBe(true);
    await focusLoadedBox(page);
    await searchBox(page).pressSequentially('em', { delay: 40 });
    await poll(async () => (await results(page).count()) > 0).toBe(true);
    await page.waitForTimeout(500);
    await screenshot(page, 'search-results-390');
    await page.context().close();
  });
});
