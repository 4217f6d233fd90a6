import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeServerAndBrowser, E2E_STAFF, openServerAndBrowser, signInPage, type RunningServer } from '../support/e2e';
import { DEMO_CLIENT, heading, poll } from '../support/screens';

describe('navigation in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser()));
  afterAll(() => closeServerAndBrowser(server, browser));

  it('comes back to a deep link opened while signed out, after signing in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const deepLink = `/client/${DEMO_CLIENT}?search=customers`;
    await page.goto(`${server.url}${deepLink}`);
    await page.waitForURL(/\/login\?next=/);
    expect(new URL(page.url()).searchParams.get('next')).toBe(deepLink);
    await page.getByLabel('Email').fill(E2E_STAFF.email);
    await page.getByLabel('Password').fill(E2E_STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === deepLink);
    await poll(() => heading(page, 'Client Details').isVisible()).toBe(true);
    // Opened from search: Back goes to the root.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('never follows a next that leaves the site', async () => {
    for (const next of ['//evil.example', '/\\evil.example', 'https://evil.example/', '/%2F%2Fevil.example', '/.//evil.example']) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/login?next=${encodeURIComponent(next)}`);
      await page.getByLabel('Email').fill(E2E_STAFF.email);
      await page.getByLabel('Password').fill(E2E_STAFF.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await poll(() => heading(page, 'Dashboard').isVisible(), next).toBe(true);
      expect(new URL(page.url()).origin, next).toBe(server.url);
      expect(new URL(page.url()).pathname, next).toBe('/');
      await context.close();
    }
  });

  it('goes to the client list with Back on a client page opened directly', async () => {
    const page = await signInPage(browser, server);
    await page.goto(`${server.url}/client/${DEMO_CLIENT}`);
    await poll(() => heading(page, 'Client Details').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(/\/clients\/all$/);
    await poll(() => heading(page, 'Clients - All').isVisible()).toBe(true);
    // Reached from inside the console, Back is one step back again.
    await page.getByRole('link', { name: 'Audit Log' }).click();
    await page.goBack();
    await page.waitForURL(/\/clients\/all$/);
    await page.context().close();
  });

  it('shows a readable not-found page and serves /favicon.ico', async () => {
    const page = await signInPage(browser, server);
    await page.goto(`${server.url}/no/such/page`);
    await poll(() => heading(page, 'Page not found').isVisible()).toBe(true);
    expect(await page.locator('main, #main-content, body').first().textContent()).not.toContain('..');
    const icon = await page.request.get(`${server.url}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
    expect((await icon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    await page.context().close();
  });
});
