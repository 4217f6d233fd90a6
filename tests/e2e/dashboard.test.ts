import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshot, signInPage, type RunningServer, closeServerAndBrowser, openServerAndBrowser } from '../support/e2e';

// A busy machine can take seconds to render the first page; expect.poll gives up after 1 s by default.
const SLOW = { timeout: 30_000 };

const LABELS = ['Total VOD Subscribers', 'Avg. Video Plays (Daily)', 'Most Popular Category'];

/** The figures the server gives this session, formatted the way the cards show them. */
async function expectedValues(page: Page): Promise<string[]> {
  const { errors, result } = await page.evaluate(async () => (await fetch('/api/stats/v1')).json());
  expect(errors).toEqual([]);
  const format = new Intl.NumberFormat('en-US');
  return [format.format(result.subscribers), format.format(result.daily_plays), result.most_popular];
}

async function cardBoxes(page: Page) {
  const boxes = [];
  for (const label of LABELS) {
    const card = page.locator('[data-stat-state]').filter({ has: page.getByRole('heading', { name: label }) });
    boxes.push((await card.boundingBox())!);
  }
  return boxes;
}

async function openLoadedDashboard(page: Page) {
  await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).isVisible(), SLOW).toBe(true);
  await expect.poll(() => page.locator('[data-stat-state="loaded"]').count(), SLOW).toBe(3);
  const values = await expectedValues(page);
  for (const [i, label] of LABELS.entries()) {
    const card = page.locator('[data-stat-state="loaded"]').filter({ has: page.getByRole('heading', { name: label }) });
    await expect.poll(() => card.getByText(values[i]!, { exact: true }).isVisible(), { ...SLOW, message: label }).toBe(true);
  }
  await expect.poll(() => page.getByRole('img', { name: /Daily video plays, last 30 days/ }).isVisible(), SLOW).toBe(true);
  await expect.poll(() => page.getByRole('img', { name: /Paid subscribers, last 12 weeks/ }).isVisible(), SLOW).toBe(true);
  await page.waitForTimeout(300); // charts measure their width after the first paint
}

describe('the dashboard in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser()));
  afterAll(() => closeServerAndBrowser(server, browser));

  it('shows the loaded figures side by side at 1440 px, with the trend below', async () => {
    const page = await signInPage(browser, server, { width: 1440, height: 900 });
    await openLoadedDashboard(page);
    const [a, b, c] = await cardBoxes(page);
    expect(b!.y).toBeCloseTo(a!.y, 0);
    expect(c!.y).toBeCloseTo(a!.y, 0);
    expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);
    await screenshot(page, 'dashboard-1440');
    await page.context().close();
  });

  it('stacks the cards in one column at 390 px', async () => {
    const page = await signInPage(browser, server, { width: 390, height: 844 });
    await openLoadedDashboard(page);
    const [a, b, c] = await cardBoxes(page);
    expect(b!.x).toBeCloseTo(a!.x, 0);
    expect(b!.y).toBeGreaterThan(a!.y + a!.height - 1);
    expect(c!.y).toBeGreaterThan(b!.y + b!.height - 1);
    await screenshot(page, 'dashboard-390');
    await page.mouse.wheel(0, 900);
    await page.waitForTimeout(300);
    await screenshot(page, 'dashboard-390-trend');
    await page.context().close();
  });

  it('reads well in the dark theme', async () => {
    const page = await signInPage(browser, server, { width: 1440, height: 900, colorScheme: 'dark' });
    await openLoadedDashboard(page);
    await screenshot(page, 'dashboard-1440-dark');
    await page.context().close();
  });

  it('leads from the subscribers card to the paid clients', async () => {
    const page = await signInPage(browser, server, { width: 1440, height: 900 });
    await openLoadedDashboard(page);
    await page.getByRole('link', { name: /Total VOD Subscribers/ }).click();
    // The list filtered to the paid levels (tests/e2e/client-profile.test.ts checks what it shows).
    await page.waitForURL(/\/clients\/all\?filter=/);
    await page.context().close();
  });
});
