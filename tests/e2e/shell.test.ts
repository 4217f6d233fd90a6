import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { screenshot, signInPage, type RunningServer, closeServerAndBrowser, openServerAndBrowser } from '../support/e2e';

describe('the console shell in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser()));
  afterAll(() => closeServerAndBrowser(server, browser));

  it('sends a signed-out browser to the login page, signs in there and shows the dashboard', async () => {
    const page = await signInPage(browser, server);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).isVisible()).toBe(true);
    const nav = page.getByRole('navigation');
    for (const label of [
      'Dashboard',
      'Messaging',
      'Video Manager',
      'Clients',
      'High Five',
      'Extended Absense',
      'Sync Vimeo videos',
      'All Clients',
      'New Clients',
      'Active Clients',
    ]) {
      await expect.poll(() => nav.getByText(label, { exact: true }).first().isVisible(), { message: label }).toBe(true);
    }
    await screenshot(page, 'shell-1440');
    // Everything the console injects (scripts, MUI's styles) carries the CSP nonce.
    expect(violations).toEqual([]);
    await page.context().close();
  });

  it('opens and closes the sidebar groups', async () => {
    const page = await signInPage(browser, server);
    const nav = page.getByRole('navigation');
    await expect.poll(() => nav.getByText('Missed Class').isVisible()).toBe(true);
    await nav.getByText('Messaging', { exact: true }).click();
    await expect.poll(() => nav.getByText('Missed Class').isVisible()).toBe(false);
    await nav.getByText('Messaging', { exact: true }).click();
    await expect.poll(() => nav.getByText('Missed Class').isVisible()).toBe(true);
    await nav.getByText('Missed Class').click();
    await page.waitForURL(/\/messaging\/missed-class$/);
    await page.context().close();
  });

  it('works at 390 px with the sidebar as a drawer', async () => {
    const page = await signInPage(browser, server, { width: 390, height: 844 });
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).isVisible()).toBe(true);
    await page
      .getByRole('button', { name: /open menu|toggle|menu/i })
      .first()
      .click();
    await expect.poll(() => page.getByText('All Clients').isVisible()).toBe(true);
    await page.waitForTimeout(500); // let the drawer finish sliding in before the picture
    await screenshot(page, 'shell-390-drawer');
    await page.getByText('All Clients').click();
    await page.waitForURL(/\/clients\/all$/);
    await page.context().close();
  });

  // The page carries the session state and the list's first page is fetched beside
  // the list's code, so a cold load's first API request is the list, asked once.
  it('opens a client list cold with the list as its first API request, asked once', async () => {
    const signedIn = await signInPage(browser, server);
    const page = await signedIn.context().newPage();
    const api: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) api.push(`${url.pathname}${url.search}`);
    });
    await page.goto(`${server.url}/clients/all`);
    await page.waitForSelector('table tbody tr td');
    // Nor once more as the list settles: the early answer is fresh where the list reads it.
    await page.waitForLoadState('networkidle');
    expect(api[0]).toBe('/api/client/v1/clients/1?page=1&perPage=25&sort=_id&order=ASC');
    expect(api.filter((path) => path.startsWith('/api/client/v1/clients/1?'))).toHaveLength(1);
    await signedIn.context().close();
  });

  // MUI's Tooltip (with Popper) is not part of the first download: the build puts
  // src/common/LazyTooltip.tsx in its place, which fetches it when a tooltip is first wanted.
  it("fetches MUI's Tooltip when a tooltip is first wanted, and shows it then", async () => {
    const signedIn = await signInPage(browser, server);
    const page = await signedIn.context().newPage();
    const tooltipScripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script' && /\/Tooltip-[^/]*\.js$/.test(request.url())) tooltipScripts.push(request.url());
    });
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    const theme = page.getByRole('button', { name: 'Toggle light/dark mode' });
    await expect.poll(() => theme.isVisible()).toBe(true);
    expect(tooltipScripts).toEqual([]);
    // Named as the Tooltip names it, before it is there.
    expect(await page.getByRole('button', { name: 'Close menu' }).count()).toBe(1);
    await theme.hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('Toggle light/dark mode');
    expect(tooltipScripts).toHaveLength(1);
    // Folded sidebar: its entries are named and explained by their tooltips.
    await page.getByRole('button', { name: 'Close menu' }).click();
    const dashboard = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' });
    await dashboard.hover();
    await expect.poll(() => page.getByRole('tooltip').filter({ hasText: 'Dashboard' }).isVisible()).toBe(true);
    await signedIn.context().close();
  });

  it('logs out from the footer menu and lands on the login page, signed out', async () => {
    const page = await signInPage(browser, server);
    await expect.poll(() => page.getByText('e2e@studio.test').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login$/);
    const me = await page.evaluate(async () => (await fetch('/api/isAuthenticated')).json());
    expect(me).toEqual({ isAuthenticated: false, user: null });
    await page.goto(`${server.url}/clients/all`);
    // The login page is told where to come back to.
    await page.waitForURL(/\/login\?next=%2Fclients%2Fall$/);
    await page.context().close();
  });
});
