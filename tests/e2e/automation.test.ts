import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { screenshot, signInPage, type RunningServer, closeServerAndBrowser, openServerAndBrowser } from '../support/e2e';

describe('automated sending on the messaging pages in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser({ env: { STUDIO_TIME_ZONE: 'Europe/London' } })));
  afterAll(() => closeServerAndBrowser(server, browser));

  it('shows the trigger settings, previews the next Monday Morning run and saves a change', async () => {
    const page = await signInPage(browser, server);
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.goto(`${server.url}/messaging/monday-morning`);
    const section = page.getByRole('region', { name: 'Automated sending' });
    await section.getByRole('switch', { name: 'Send automatically' }).waitFor();
    await expect(section.getByLabel('Send at').inputValue()).resolves.toBe('08:30');
    await section.getByText(/^Next run .* \(Europe\/London\)\.$/).waitFor();
    await section.getByRole('heading', { name: 'Automated sending' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'automation-settings-monday-morning');

    await section.getByRole('button', { name: 'Preview' }).click();
    const summary = section.getByText(/clients? would receive it on/);
    await summary.waitFor();
    expect(Number((await summary.textContent())!.split(' ')[0])).toBeGreaterThan(0);
    await section.getByRole('table', { name: 'Preview of the next run' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'automation-preview-monday-morning');

    await section.getByLabel('Send at').fill('09:15');
    await section.getByRole('button', { name: 'Save sending settings' }).click();
    await page.getByText('Sending settings saved').waitFor();
    await page.reload();
    await expect(page.getByRole('region', { name: 'Automated sending' }).getByLabel('Send at').inputValue()).resolves.toBe('09:15');
    await page.context().close();
  });

  it('shows the High Five settings with milestones and the 30-day counts', async () => {
    const page = await signInPage(browser, server);
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.goto(`${server.url}/messaging/high-fives`);
    const section = page.getByRole('region', { name: 'Automated sending' });
    await expect(section.getByRole('textbox', { name: 'Milestone classes' }).inputValue()).resolves.toBe('10, 50, 100');
    const counts = section.getByRole('table', { name: 'Last 30 days' });
    await counts.getByRole('cell', { name: 'All templates' }).waitFor();
    await section.getByRole('spinbutton', { name: 'Delay (minutes)' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'automation-settings-high-fives');
    await counts.scrollIntoViewIfNeeded();
    await screenshot(page, 'automation-counts-high-fives');
    await page.context().close();
  });
});
