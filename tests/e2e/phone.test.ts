import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser, screenshot, signInPage, type RunningServer } from '../support/e2e';
import { drawerOpen, heading, openDrawer, poll, settle, sidewaysOverflow } from '../support/screens';

const PHONE = { width: 390, height: 844 };

/** On a phone the sidebar is a drawer over the page: whatever is done in it, the page asked for is not left under it. */
describe('the phone drawer in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ server, browser } = await openServerAndBrowser());
    page = await signInPage(browser, server, PHONE);
  });
  // Each test starts on the dashboard, whatever the one before it left open.
  beforeEach(async () => {
    await page.goto(`${server.url}/`);
    await heading(page, 'Dashboard').waitFor({ timeout: 30_000 });
  });
  afterAll(() => closeServerAndBrowser(server, browser));

  const closedAfter = async (what: string) => {
    await poll(() => drawerOpen(page), `the drawer closes after ${what}`).toBe(false);
    await settle(page);
    expect(await sidewaysOverflow(page)).toBe(0);
  };

  it('closes after a search hit is tapped', async () => {
    await openDrawer(page);
    const box = page.getByRole('combobox', { name: 'Search customers' });
    await box.click();
    await poll(() => page.locator('form[role="search"][data-ready="true"]').count()).toBe(1);
    await box.pressSequentially('emery', { delay: 40 });
    const first = page.getByRole('listbox', { name: 'Customer search results' }).getByRole('option').first();
    await poll(() => first.isVisible()).toBe(true);
    await first.click();
    await page.waitForURL(/\/client\/\d+\?search=customers$/);
    await closedAfter('a search hit');
    await poll(() => heading(page, 'Client Details').isVisible()).toBe(true);
    await screenshot(page, 'phone-after-search-hit');
  });

  it("closes after 'Sync Vimeo videos', so its toast shows", async () => {
    await openDrawer(page);
    await page.getByRole('button', { name: 'Sync Vimeo videos' }).click();
    await closedAfter('the sync');
    await poll(() => page.getByText(/Vimeo sync has started!|A Vimeo sync is already running\./).isVisible()).toBe(true);
  });

  it('keeps the app bar, and the button that opens the drawer, on screen while a long page scrolls', async () => {
    await page.goto(`${server.url}/videos`);
    await poll(() =>
      page
        .getByRole('link', { name: /Advanced Barre Blast/ })
        .first()
        .isVisible(),
    ).toBe(true);
    await page.mouse.move(200, 600);
    await page.mouse.wheel(0, 1200);
    await poll(() => page.evaluate(() => window.scrollY > 0)).toBe(true);
    await settle(page);
    expect((await page.locator('header').first().boundingBox())!.y).toBe(0);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(true);
  });

  it('closes after a sidebar link and after My sessions', async () => {
    await openDrawer(page);
    await page.getByRole('link', { name: 'Audit Log' }).click();
    await page.waitForURL(/\/audit$/);
    await closedAfter('a link');
    await openDrawer(page);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'My sessions' }).click();
    await page.waitForURL(/\/sessions$/);
    await closedAfter('My sessions');
    await poll(() => heading(page, 'My sessions').isVisible()).toBe(true);
  });
});

describe('the sign-in page on a phone', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser()));
  afterAll(() => closeServerAndBrowser(server, browser));

  it.each([390, 360, 320])('fits %i px, also with an error shown', async (width) => {
    const context = await browser.newContext({ viewport: { width, height: 700 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    expect(await sidewaysOverflow(page)).toBe(0);
    expect((await page.locator('main').boundingBox())!.width).toBeLessThanOrEqual(width - 16);
    await page.getByLabel('Email').fill('someone.with.a.very.long.address@a-studio-with-a-long-domain-name.example');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.getByRole('alert').isVisible()).toBe(true);
    expect(await sidewaysOverflow(page)).toBe(0);
    await screenshot(page, `login-${width}-error`);
    await context.close();
  });
});
