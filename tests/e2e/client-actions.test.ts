import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot, signInPage, startServer, type RunningServer } from '../support/e2e';

// The machine may be busy: give each wait up to 20 s instead of expect.poll's default second.
const poll = <T>(value: () => Promise<T> | T, message?: string) => expect.poll(value, { timeout: 20_000, interval: 100, message });

/** Waits until a dialog's fade-in has finished, so a screenshot shows it as staff see it. */
const shown = (dialog: Locator) =>
  poll(() => dialog.evaluate((element) => getComputedStyle(element.closest('.MuiDialog-container') ?? element).opacity)).toBe('1');

// In the deterministic demo data client 24 has favorites, contracts and debug records with Firebase tokens.
const CLIENT = 24;
const DAY = 86_400_000;

describe('client actions in Chromium (sandbox FCM and Mindbody)', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await signInPage(browser, server);
  });
  // Each test starts on the client's page, whatever the one before it left open.
  beforeEach(async () => {
    await page.goto(`${server.url}/client/${CLIENT}`);
    await page.getByRole('heading', { level: 1, name: 'Client Details' }).waitFor({ timeout: 20_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('grants a one-week override and shows the red note', async () => {
    await page.getByRole('button', { name: 'Update VOD Access Level' }).click();
    const modal = page.getByRole('dialog', { name: 'Update Client VOD Access Level' });
    await modal.getByRole('combobox', { name: 'New VOD Access Level' }).click();
    await page.getByRole('option', { name: 'VOD | PREMIUM' }).click();
    await modal.getByRole('combobox', { name: 'Override for' }).click();
    await page.getByRole('option', { name: '1 Week' }).click();
    await poll(() => modal.getByText(/^Warning: Client will have new access level until/).isVisible()).toBe(true);
    await shown(modal);
    await screenshot(page, 'client-action-access-level-modal');
    await modal.getByRole('button', { name: 'Save' }).click();
    await poll(() => modal.getByRole('status').textContent()).toBe('Saved');
    await screenshot(page, 'client-action-access-level-saved');
    await poll(() => modal.count()).toBe(0);

    const note = page.getByRole('note');
    await poll(() => note.textContent()).toMatch(/^Admin granted this Access Level until /);
    const until = Date.parse((await note.textContent())!.replace('Admin granted this Access Level until ', '').replace(' at ', ' '));
    expect(Math.round((until - Date.now()) / DAY)).toBe(7);
    await poll(() => page.locator('[data-field="vod_access_level"]').textContent()).toBe('VOD | PREMIUM');
    await screenshot(page, 'client-action-override-note');
  });

  it('adds a favorite and removes it again', async () => {
    await page.getByRole('button', { name: 'View Favorites Videos' }).click();
    const region = page.getByRole('region', { name: 'Favorites Videos' });
    await poll(async () => (await region.locator('table').count()) > 0 || (await region.getByText('No records were found.').isVisible())).toBe(true);
    const before = await region.locator('tbody tr').count();
    // While a dialog is open the page behind it is aria-hidden: read the table before opening one.
    const titles = () => region.locator('tbody tr td:nth-child(2)').allTextContents();
    const titlesBefore = await titles();

    await region.getByRole('button', { name: 'Add a Video' }).click();
    const modal = page.getByRole('dialog', { name: "Add a video to client's favorites list" });
    await modal.getByRole('combobox', { name: 'Video' }).click();
    const choice = page.getByRole('option', { disabled: false }).first();
    await poll(() => choice.isVisible()).toBe(true);
    await screenshot(page, 'client-action-favorites-options');
    const label = (await choice.textContent())!;
    // 'Title - COACH: Name (25 MINUTE(S))' → 'Title'
    const title = label.replace(/ \((?:[^()]|\([^()]*\))*\)$/, '').replace(/ - COACH: .*$/, '');
    // Two videos may share a title: count the rows with it rather than expect it once.
    const sameTitle = async () => (await titles()).filter((text) => text === title).length;
    const withTitle = titlesBefore.filter((text) => text === title).length;
    await choice.click();
    await modal.getByRole('button', { name: 'Save' }).click();
    await poll(() => modal.getByRole('status').textContent()).toBe('Saved');
    await screenshot(page, 'client-action-favorites-saved');
    await poll(() => modal.count()).toBe(0);
    await poll(() => region.locator('tbody tr').count()).toBe(before + 1);
    await poll(sameTitle).toBe(withTitle + 1);
    await screenshot(page, 'client-action-favorites-added');

    // The newest favorite is the first row.
    await region
      .locator('tbody tr')
      .first()
      .getByRole('button', { name: `Remove ${title}` })
      .click();
    await poll(() => region.locator('tbody tr').count()).toBe(before);
    await poll(sameTitle).toBe(withTitle);
    expect(await page.getByText('Error removing favorites video').count()).toBe(0);
  });

  it('sends a push through the sandbox and lists it', async () => {
    await page.getByRole('button', { name: 'Send a push notification to client' }).click();
    const modal = page.getByRole('dialog', { name: 'Push Notification Directly to Client' });
    await modal.getByRole('textbox', { name: 'Title' }).fill('Great class today!');
    await modal.getByRole('textbox', { name: 'Message' }).fill('See you on Monday at 7 for Sunrise Yoga.');
    await shown(modal);
    await screenshot(page, 'client-action-push-modal');
    await modal.getByRole('button', { name: 'Send' }).click();
    await poll(() => modal.getByRole('status').textContent()).toBe('Sent');
    await screenshot(page, 'client-action-push-sent');
    await poll(() => modal.isVisible()).toBe(false);

    await page.getByRole('button', { name: 'View Recent Push Notifications' }).click();
    const region = page.getByRole('region', { name: 'Recent Push Notifications' });
    await poll(() => region.getByRole('cell', { name: 'Great class today!' }).isVisible()).toBe(true);
    await poll(() => region.getByText(/^Sent/).first().isVisible()).toBe(true);
    await region.scrollIntoViewIfNeeded();
    await screenshot(page, 'client-action-push-history');
  });

  it('says why a push to a client without a device token was not sent', async () => {
    // Client 1 of the demo data never sent debug records, so it has no Firebase token.
    await page.goto(`${server.url}/client/1`);
    await page.getByRole('heading', { level: 1, name: 'Client Details' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Send a push notification to client' }).click();
    const modal = page.getByRole('dialog', { name: 'Push Notification Directly to Client' });
    await modal.getByRole('textbox', { name: 'Message' }).fill('Anyone there?');
    await modal.getByRole('button', { name: 'Send' }).click();
    await poll(() => modal.getByRole('status').textContent()).toMatch(/^Error.*no device token/);
    await screenshot(page, 'client-action-push-no-token');
    await poll(() => modal.isVisible()).toBe(false);
    await page.goto(`${server.url}/client/${CLIENT}`);
    await page.getByRole('heading', { level: 1, name: 'Client Details' }).waitFor({ timeout: 20_000 });
  });

  it('syncs the contracts from the sandbox Mindbody', async () => {
    await page.getByRole('button', { name: 'View Contracts' }).click();
    const region = page.getByRole('region', { name: 'MindBody Contracts' });
    await region.scrollIntoViewIfNeeded();
    await region.getByRole('button', { name: 'Sync Contracts' }).click();
    const modal = page.getByRole('dialog', { name: 'Sync Client Contracts' });
    await poll(() => modal.getByText(/uses MindBody API calls/).isVisible()).toBe(true);
    await shown(modal);
    await screenshot(page, 'client-action-sync-modal');
    await modal.getByRole('button', { name: 'Confirm' }).click();
    await poll(() => region.getByRole('status').textContent()).toBe('Sync Complete');
    await poll(() => region.locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'client-action-sync-complete');
  });
});
