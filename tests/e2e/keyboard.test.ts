import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { closeServerAndBrowser, E2E_STAFF, openServerAndBrowser, signInPage, type RunningServer } from '../support/e2e';
import { DEMO_CLIENT, heading, poll } from '../support/screens';

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** Presses Tab until `target` has the focus (as a keyboard user would), failing after `most` presses. */
async function tabTo(page: Page, target: Locator, most = 80) {
  for (let presses = 0; presses < most; presses += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

/** The focus is shown: a ring (outline) or MUI's focus-visible mark. */
const focusVisible = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return false;
    const style = getComputedStyle(element);
    return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || element.matches(':focus-visible');
  });

/** Tab from inside an open modal: the focus stays in it (MUI's focus trap). */
async function expectFocusTrapped(page: Page, dialog: Locator) {
  for (let presses = 0; presses < 12; presses += 1) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
}

describe('the console from the keyboard alone, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ server, browser } = await openServerAndBrowser());
    // Signed in once for the tests after the first; the first signs in on its own page.
    page = await signInPage(browser, server);
  });
  afterAll(() => closeServerAndBrowser(server, browser));
  /** Each test starts from the dashboard, whatever ran before it. */
  const onDashboard = async () => {
    await page.goto(`${server.url}/`);
    await poll(() => heading(page, 'Dashboard').isVisible()).toBe(true);
  };

  it('signs in with the keyboard', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await page.goto(`${server.url}/`);
    await page.waitForURL(/\/login/);
    // The e-mail box has the focus on arrival.
    await page.keyboard.type(E2E_STAFF.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(E2E_STAFF.password);
    await page.keyboard.press('Enter');
    await poll(() => heading(page, 'Dashboard').isVisible()).toBe(true);
    await page.context().close();
  });

  it('reaches the group headers and the sync button with Tab, each visibly focused, and opens and closes a group with Enter and Space', async () => {
    await onDashboard();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Messaging', 'Video Manager', 'Clients']) {
      await tabTo(page, nav.getByRole('button', { name }));
      expect(await focusVisible(page), name).toBe(true);
    }
    const clients = nav.getByRole('button', { name: 'Clients' });
    await page.keyboard.press('Enter');
    await poll(() => clients.getAttribute('aria-expanded')).toBe('false');
    await poll(() => nav.getByRole('link', { name: 'All Clients' }).isVisible()).toBe(false);
    await page.keyboard.press('Space');
    await poll(() => clients.getAttribute('aria-expanded')).toBe('true');
    await poll(() => nav.getByRole('link', { name: 'All Clients' }).isVisible()).toBe(true);
  });

  it("starts a Vimeo sync from the keyboard: 'Sync Vimeo videos' is a real button", async () => {
    await onDashboard();
    const sync = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sync Vimeo videos' });
    expect(await sync.evaluate((element) => element.tagName)).toBe('BUTTON');
    await page.getByRole('link', { name: 'Dashboard' }).focus();
    await tabTo(page, sync);
    expect(await focusVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    await poll(() => page.getByText(/Vimeo sync has started!|A Vimeo sync is already running\./).isVisible()).toBe(true);
  });

  it('opens a client from search with the arrow keys and Enter', async () => {
    await onDashboard();
    const box = page.getByRole('combobox', { name: 'Search customers' });
    // The search box arrives after the page (its own chunk): wait for it before walking to it.
    await box.waitFor({ timeout: 20_000 });
    // From the top of the freshly loaded page, as a keyboard user starts.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, box);
    await poll(() => page.locator('form[role="search"][data-ready="true"]').count()).toBe(1);
    await page.keyboard.type('emery', { delay: 40 });
    const options = page.getByRole('listbox', { name: 'Customer search results' }).getByRole('option');
    await poll(() => options.count().then((count) => count > 1)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await poll(() => options.nth(1).getAttribute('aria-selected')).toBe('true');
    const href = (await options.nth(1).getAttribute('href'))!;
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => `${url.pathname}${url.search}` === href);
    await poll(() => heading(page, 'Client Details').isVisible()).toBe(true);
  });

  it('opens every modal of the client page from the keyboard, keeps the focus inside it, and gives it back on Escape', async () => {
    await page.goto(`${server.url}/client/${DEMO_CLIENT}`);
    await poll(() => page.locator('[data-field="email"]').textContent().then(Boolean)).toBe(true);
    const modals = [
      ['Send a push notification to client', 'Push Notification Directly to Client'],
      ['Update VOD Access Level', 'Update Client VOD Access Level'],
      ['Add a Video', "Add a video to client's favorites list"],
      ['Sync Contracts', 'Sync Client Contracts'],
    ] as const;
    for (const [button, title] of modals) {
      const trigger = page.getByRole('button', { name: button });
      await page.getByRole('button', { name: 'Back' }).focus();
      await tabTo(page, trigger);
      expect(await focusVisible(page), button).toBe(true);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: title });
      await poll(() => dialog.isVisible(), title).toBe(true);
      await poll(() => dialog.evaluate((element) => element.contains(document.activeElement)), title).toBe(true);
      await expectFocusTrapped(page, dialog);
      await page.keyboard.press('Escape');
      await poll(() => dialog.count(), title).toBe(0);
      await poll(() => isFocused(trigger), `${title} gives the focus back`).toBe(true);
    }
  });

  it("opens 'Add new message' from the keyboard, traps the focus and gives it back", async () => {
    await page.goto(`${server.url}/messaging/high-fives`);
    const trigger = page.getByRole('button', { name: 'Add new message' });
    await poll(() => trigger.isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Dashboard' }).focus();
    await tabTo(page, trigger, 120);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add new message' });
    await poll(() => dialog.isVisible()).toBe(true);
    await expectFocusTrapped(page, dialog);
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    await poll(() => isFocused(trigger)).toBe(true);
  });

  it('opens a video from the phone card list with Enter', async () => {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await page.context().storageState() })).newPage();
    await phone.goto(`${server.url}/videos`);
    const first = phone.getByRole('link', { name: /Advanced Barre Blast/ }).first();
    await poll(() => first.isVisible()).toBe(true);
    await phone.getByRole('heading', { level: 1, name: 'Video Manager' }).click();
    await tabTo(phone, first, 40);
    expect(await focusVisible(phone)).toBe(true);
    await phone.keyboard.press('Enter');
    await poll(() => heading(phone, 'Edit video').isVisible()).toBe(true);
    await phone.context().close();
  });
});
