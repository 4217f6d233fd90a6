import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser, screenshot, signInPage, type RunningServer } from '../support/e2e';

/** Another site: `localhost` is not the same site as the console's `127.0.0.1`. */
function startForeignSite(consoleUrl: string) {
  const page = `<!doctype html><title>Win a prize</title>
    <a id="logout" href="${consoleUrl}/logout">Claim your prize</a>
    <a id="sync" href="${consoleUrl}/api/v1/sync/all-vimeo-videos">Free videos</a>
    <img src="${consoleUrl}/api/v1/sync/contracts/-99/100001" alt="">`;
  const server = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page));
  return new Promise<{ url: string; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://localhost:${(server.address() as AddressInfo).port}/`, close: () => server.close() })),
  );
}

const signedIn = (page: Page) =>
  page.evaluate(async () => ((await (await fetch('/api/isAuthenticated')).json()) as { isAuthenticated: boolean }).isAuthenticated);
const syncCount = (page: Page) => page.evaluate(async () => ((await (await fetch('/api/admin/v1/vimeo-syncs')).json()) as unknown[]).length);

describe('links and pages of another site, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let foreign: { url: string; close: () => void };

  beforeAll(async () => {
    ({ server, browser } = await openServerAndBrowser());
    foreign = await startForeignSite(server.url);
  });
  afterAll(async () => {
    foreign?.close();
    await closeServerAndBrowser(server, browser);
  });

  it('starts no sync and does not sign out; the sign-out page asks, and its button signs out', async () => {
    const page = await signInPage(browser, server, { width: 390, height: 844 });
    const syncsBefore = await syncCount(page);
    await page.goto(foreign.url);
    await page.getByText('Free videos').click();
    await page.waitForURL(/all-vimeo-videos/);
    expect(await page.textContent('body')).toContain('must come from the console');
    expect(await syncCount(page)).toBe(syncsBefore);

    await page.goto(foreign.url);
    await page.getByText('Claim your prize').click();
    await page.waitForURL(/\/logout$/);
    await expect.poll(() => page.getByText('Do you want to sign out of Studio Console?').isVisible()).toBe(true);
    const card = await page.locator('main').boundingBox();
    expect(card!.x + card!.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'logout-confirm-390');
    expect(await signedIn(page)).toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    expect(await signedIn(page)).toBe(false);
    await page.context().close();
  });
});
