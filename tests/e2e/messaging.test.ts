import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Request } from 'playwright-core';
import { launchBrowser, screenshot, signInPage, startServer, type RunningServer } from '../support/e2e';

const ROUTES = [
  ['/messaging/high-fives', 'Push Messaging - High Five'],
  ['/messaging/missed-class', 'Push Messaging - Missed Class'],
  ['/messaging/notetoself', 'Push Messaging - #notetoself'],
  ['/messaging/monday-morning', 'Push Messaging - Monday Morning'],
  ['/messaging/cancelled-class', 'Push Messaging - Cancelled Class'],
  ['/messaging/extended-absense', 'Push Messaging - Extended Absense'],
] as const;

const templateRows = (page: Page) =>
  page
    .getByRole('table')
    .getByRole('row')
    .filter({ has: page.getByRole('textbox') });

/** Records the calls to one API path made by the page from now on. */
function recordCalls(page: Page, path: string) {
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) calls.push(request);
  });
  return calls;
}

describe('push-message templates in the browser', () => {
  const servers: RunningServer[] = [];
  let browser: Browser;

  beforeAll(async () => {
    servers.push(await startServer());
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('titles every message type route', async () => {
    const page = await signInPage(browser, servers[0]!);
    for (const [route, title] of ROUTES) {
      await page.goto(`${servers[0]!.url}${route}`);
      await expect(page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor()).resolves.toBeUndefined();
    }
    await page.context().close();
  });

  it('refuses an empty new message with "* Message Required" and sends nothing; with content it is added', async () => {
    const server = servers[0]!;
    const page = await signInPage(browser, server);
    await page.goto(`${server.url}/messaging/high-fives`);
    await templateRows(page).first().waitFor();
    const before = await templateRows(page).count();
    const adds = recordCalls(page, '/api/client/v1/messaging/add-new');
    await page.getByRole('button', { name: 'Add new message' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Only a title');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('* Message Required').waitFor();
    await screenshot(page, 'messaging-add-required');
    expect(adds).toHaveLength(0);

    // The API refuses it too, and stores nothing.
    const refused = await page.request.post(`${server.url}/api/client/v1/messaging/add-new`, {
      data: { enabled: true, message: '', message_type: 1, title: 'Only a title' },
    });
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toMatchObject({ status: 'error' });
    const listed = await page.request.get(`${server.url}/api/client/v1/messaging/1`);
    expect((await listed.json()).messages).toHaveLength(before);

    await dialog.getByRole('textbox', { name: 'Message' }).fill('Five classes this week, {first_name}!');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('New message saved').waitFor();
    await expect.poll(() => templateRows(page).count()).toBe(before + 1);
    expect(adds).toHaveLength(1);
    await page.context().close();
  });

  it('saves edits of two rows of type 2 with exactly two update calls; they survive a reload and a restart', async () => {
    const server = servers[0]!;
    const page = await signInPage(browser, server);
    await page.goto(`${server.url}/messaging/missed-class`);
    await page.getByRole('heading', { level: 1, name: 'Push Messaging - Missed Class' }).waitFor();
    const rows = templateRows(page);
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBeGreaterThanOrEqual(2);

    const updates = recordCalls(page, '/api/client/v1/messaging/update');
    const firstTitle = 'We really missed you (e2e)';
    const secondMessage = 'Hey {first_name}, a 20-minute class is waiting (e2e).';
    await rows.nth(0).getByRole('textbox', { name: 'Title' }).fill(firstTitle);
    await rows.nth(1).getByRole('textbox', { name: 'Message' }).fill(secondMessage);
    const secondEnabled = rows.nth(1).getByRole('switch', { name: 'Enabled' });
    const wasEnabled = await secondEnabled.isChecked();
    await secondEnabled.click();
    await expect(rows.nth(1).getByTestId('message-preview').textContent()).resolves.toContain('Hey Jordan, a 20-minute class');
    await screenshot(page, 'messaging-edited');

    const responses = Promise.all([0, 1].map(() => page.waitForResponse((r) => r.url().endsWith('/api/client/v1/messaging/update'))));
    await page.getByRole('button', { name: 'Save Settings' }).click();
    expect((await responses).map((r) => r.status())).toEqual([200, 200]);
    await page.waitForFunction(() => document.querySelectorAll('[data-ranupdates="true"]').length === 0);
    expect(updates).toHaveLength(2);

    const expectKept = async (target: Page) => {
      const kept = templateRows(target);
      await kept.nth(1).waitFor();
      await expect(kept.nth(0).getByRole('textbox', { name: 'Title' }).inputValue()).resolves.toBe(firstTitle);
      await expect(kept.nth(1).getByRole('textbox', { name: 'Message' }).inputValue()).resolves.toBe(secondMessage);
      await expect(kept.nth(1).getByRole('switch', { name: 'Enabled' }).isChecked()).resolves.toBe(!wasEnabled);
    };
    await page.reload();
    await expectKept(page);
    await page.context().close();

    expect(await server.stop()).toBe(0);
    const restarted = await startServer({ dataDir: server.dataDir });
    servers.push(restarted);
    const again = await signInPage(browser, restarted);
    await again.goto(`${restarted.url}/messaging/missed-class`);
    await expectKept(again);
    await screenshot(again, 'messaging-after-restart');
    await again.context().close();
  });
});
