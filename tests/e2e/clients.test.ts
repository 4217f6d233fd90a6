import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshot, signInPage, type RunningServer, closeServerAndBrowser, openServerAndBrowser } from '../support/e2e';

const SECTIONS = [
  { title: 'MindBody Contracts', toggle: 'View Contracts', empty: 'No contracts were found.' },
  { title: 'Recent Streamed Videos', toggle: 'View Recent Streamed Videos', empty: 'No videos were found.' },
  { title: 'Favorites Videos', toggle: 'View Favorites Videos', empty: 'No records were found.' },
  { title: 'Purchase History', toggle: 'View Purchase History', empty: 'No purchases were found.' },
  { title: 'User Debug Info', toggle: 'View User Debug Info', empty: 'No debug info was found.' },
];

// The machine may be busy: give each wait up to 20 s instead of expect.poll's default second.
const poll = <T>(value: () => Promise<T> | T, message?: string) => expect.poll(value, { timeout: 20_000, interval: 100, message });

// In the deterministic demo data client 24 has contracts, views, favorites, purchases and debug records.
const CLIENT_WITH_EVERYTHING = 24;

// td 0 of a list row is its selection box (bulk actions): the spec's columns start at 1.
const columnTexts = (page: Page, column: number) =>
  page.locator('table tbody tr').evaluateAll((rows, index) => rows.map((row) => row.querySelectorAll('td')[index + 1]?.textContent ?? ''), column);

async function openAllSections(page: Page) {
  for (const { toggle } of SECTIONS) await page.getByRole('button', { name: toggle }).click();
  for (const { toggle } of SECTIONS) {
    const hide = toggle.replace(/^View/, 'Hide');
    await poll(() => page.getByRole('button', { name: hide }).getAttribute('aria-expanded')).toBe('true');
  }
}

describe('client lists and client details in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser()));
  afterAll(() => closeServerAndBrowser(server, browser));

  it('opens All Clients, sorts, pages, opens a client with every section open, and goes Back', async () => {
    const page = await signInPage(browser, server);
    await page.goto(`${server.url}/clients/all`);
    await poll(() => page.getByRole('heading', { level: 1, name: 'Clients - All' }).isVisible()).toBe(true);
    await page.waitForSelector('table tbody tr td');
    await poll(() => page.getByText('1-25 of 2,000').isVisible()).toBe(true);

    await page.getByRole('button', { name: /last name/i }).click();
    await page.waitForURL(/sort=last_name/);
    await poll(async () => {
      const names = (await columnTexts(page, 2)).map((name) => name.toLowerCase());
      return names.length === 25 && names.every((name, i) => i === 0 || names[i - 1]! <= name);
    }).toBe(true);
    const firstPage = await columnTexts(page, 3);

    await page.getByRole('button', { name: 'Go to next page' }).click();
    await poll(() => page.getByText('26-50 of 2,000').isVisible()).toBe(true);
    await poll(async () => (await columnTexts(page, 3))[0] !== firstPage[0]).toBe(true);
    const secondPage = await columnTexts(page, 3);
    expect(secondPage.filter((email) => firstPage.includes(email))).toEqual([]);
    await screenshot(page, 'clients-all-sorted-page-2');

    await page.getByText(secondPage[0]!, { exact: true }).click();
    await page.waitForURL(/\/client\/\d+$/);
    await poll(() => page.getByRole('heading', { level: 1, name: 'Client Details' }).isVisible()).toBe(true);
    await poll(() => page.getByText(secondPage[0]!, { exact: true }).isVisible()).toBe(true);
    await openAllSections(page);
    for (const { title, empty } of SECTIONS) {
      const region = page.getByRole('region', { name: title });
      await poll(
        async () => (await region.locator('table, [data-testid="debug-record"]').count()) > 0 || (await region.getByText(empty).isVisible()),
        title,
      ).toBe(true);
    }

    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL((url) => url.pathname === '/clients/all');
    await poll(() => page.getByText('26-50 of 2,000').isVisible()).toBe(true);
    await page.context().close();
  });

  it('filters a list, keeps the filter in the URL across a reload, and opens a URL with filters', async () => {
    const page = await signInPage(browser, server);
    await page.goto(`${server.url}/clients/all`);
    await page.waitForSelector('table tbody tr td');
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Expired' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'VOD Access Level' }).click();
    await page.getByRole('option', { name: 'VOD | PREMIUM' }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => JSON.parse(url.searchParams.get('filter') ?? '{}').vod_access_level?.[0] === 3);
    const filtered = async () => {
      const [statuses, levels] = [await columnTexts(page, 5), await columnTexts(page, 4)];
      return statuses.length > 0 && statuses.every((status) => status === 'Expired') && levels.every((level) => level === 'VOD | PREMIUM');
    };
    await poll(filtered).toBe(true);
    const range = await page.locator('.MuiTablePagination-displayedRows').textContent();
    expect(range).toMatch(/^1-\d+ of \d+$/);

    await page.reload();
    await poll(filtered).toBe(true);
    expect(await page.locator('.MuiTablePagination-displayedRows').textContent()).toBe(range);
    await screenshot(page, 'clients-all-filtered');

    const url = `${server.url}/clients/active?${new URLSearchParams({ filter: JSON.stringify({ new: true, mindbody: true }), page: '1', perPage: '25', sort: 'id', order: 'ASC' })}`;
    await page.goto(url);
    await poll(async () => (await columnTexts(page, 0)).length > 0 && (await columnTexts(page, 0)).every((badge) => badge === 'New')).toBe(true);
    expect(await page.getByRole('combobox', { name: 'MindBody' }).textContent()).toContain('Linked');
    await page.context().close();
  });

  it('opens a client from the list with the keyboard alone: Tab to a row, Enter', async () => {
    const page = await signInPage(browser, server);
    await page.goto(`${server.url}/clients/all`);
    await page.waitForSelector('table tbody tr td');
    await page.getByRole('textbox', { name: 'Search by name or e-mail' }).focus();
    let tabs = 0;
    while (!(await page.evaluate(() => document.activeElement?.tagName === 'TR')) && tabs < 60) {
      await page.keyboard.press('Tab');
      tabs += 1;
    }
    const email = await page.evaluate(() => document.activeElement?.querySelectorAll('td')[4]?.textContent ?? '');
    expect(email).toMatch(/@/);
    // The focused row is outlined.
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await screenshot(page, 'clients-row-focused');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/client\/\d+$/);
    await poll(() => page.getByText(email, { exact: true }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('lays every client list out within a 390 px phone: cards, no sideways scrolling, Enter opens a card', async () => {
    const page = await signInPage(browser, server, { width: 390, height: 844 });
    for (const list of ['all', 'mindbody', 'active', 'new']) {
      await page.goto(`${server.url}/clients/${list}`);
      await page.waitForSelector('main li .MuiListItemButton-root');
      expect(await page.locator('table').count(), list).toBe(0);
      const widths = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
      expect(widths.scroll, list).toBeLessThanOrEqual(widths.inner);
      await poll(() => page.getByRole('button', { name: 'Export' }).isVisible(), list).toBe(true);
      const box = await page.getByRole('button', { name: 'Export' }).boundingBox();
      expect(box!.x + box!.width, list).toBeLessThanOrEqual(390);
    }
    await page.goto(`${server.url}/clients/all`);
    await page.waitForSelector('main li .MuiListItemButton-root');
    await screenshot(page, 'clients-all-phone');
    // A filter is added from the filter button, and fits too.
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Status' }).click();
    await page.getByRole('menu').waitFor({ state: 'hidden' });
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Active', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => JSON.parse(url.searchParams.get('filter') ?? '{}').status?.[0] === 'Active');
    await poll(async () => (await page.locator('main li .MuiListItemButton-root').allTextContents()).every((text) => text.endsWith('Active'))).toBe(true);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'clients-all-phone-filtered');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await screenshot(page, 'clients-all-phone-bottom');
    // Bulk selection on the cards: the actions wrap inside the screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('main li input[type=checkbox]').first().check();
    await page.getByRole('button', { name: /^Select the \d+ on this page$/ }).click();
    for (const name of [/^Push to \d+$/, /^Grant access level to \d+$/, /^Export \d+ to CSV$/]) {
      const action = await page.getByRole('button', { name }).boundingBox();
      expect(action!.x + action!.width, String(name)).toBeLessThanOrEqual(390);
    }
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'clients-all-phone-selected');
    await page.getByRole('button', { name: 'Unselect' }).click();
    const card = page.locator('main li .MuiListItemButton-root').first();
    await card.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/client\/\d+$/);
    await page.context().close();
  });

  it('shows all five sections of a client that has data in each of them', async () => {
    const page = await signInPage(browser, server);
    await page.goto(`${server.url}/client/${CLIENT_WITH_EVERYTHING}`);
    await poll(() => page.getByRole('button', { name: 'Update VOD Access Level' }).isVisible()).toBe(true);
    await openAllSections(page);

    const contracts = page.getByRole('region', { name: 'MindBody Contracts' });
    await poll(() => contracts.locator('tbody tr').count()).toBeGreaterThan(0);
    // Days in the console's one date format (the browser's locale: en-US here), as every other date on the page.
    const day = '[A-Z][a-z]{2} \\d{1,2}, \\d{4}';
    expect(await contracts.locator('tbody tr').first().locator('td').nth(2).textContent()).toMatch(new RegExp(`^${day} - ${day}$`));
    expect(await contracts.locator('tbody tr').first().locator('td').nth(4).textContent()).toMatch(new RegExp(`^(\\$\\d+(\\.\\d\\d)? on ${day}){3}$`));
    for (const title of ['Recent Streamed Videos', 'Favorites Videos', 'Purchase History']) {
      await poll(() => page.getByRole('region', { name: title }).locator('tbody tr').count(), title).toBeGreaterThan(0);
    }
    expect(await page.getByRole('region', { name: 'Favorites Videos' }).getByRole('button', { name: 'Remove' }).count()).toBeGreaterThan(0);
    await poll(() => page.getByTestId('debug-record').count()).toBeGreaterThan(0);
    await page.getByRole('region', { name: 'Who looked' }).waitFor();
    // Each section scrolls inside 400 px.
    const heights = await page.locator('[data-testid="section-body"]').evaluateAll((bodies) => bodies.map((body) => body.getBoundingClientRect().height));
    // The spec's five sections plus Recent Push Notifications (docs/features.md), History (docs/features.md),
    // Automated Messages (docs/automation.md) and, for an owner, Who looked (docs/data-rights.md).
    expect(heights).toHaveLength(9);
    for (const height of heights) expect(height).toBeLessThanOrEqual(400);
    await screenshot(page, 'client-details-all-sections');

    await page.getByRole('button', { name: 'Hide Contracts' }).click();
    await poll(() => page.getByRole('button', { name: 'View Contracts' }).isVisible()).toBe(true);
    await page.context().close();
  });
});
