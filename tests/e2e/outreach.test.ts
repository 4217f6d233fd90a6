import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser, screenshot, signInPage, type RunningServer } from '../support/e2e';
import { DEMO_CLIENT, expectInsideWindow, poll, seriousAxeFindings, sidewaysOverflow, type AxeFinding } from '../support/screens';

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;
const LONG_NAME = 'Premium members who stopped coming after the summer timetable change';

/**
 * The screens of the client's reach, in Chromium as staff use them: the at-risk list with each
 * client's reach and its follow-ups (log a contact, snooze), the client page's front-desk facts, a
 * long segment name in the sidebar, and the audit log's words, at 1440 and 390 px in both themes,
 * each read by axe (no serious or critical finding) and photographed.
 */
describe("the client's reach in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server, browser } = await openServerAndBrowser());
    const page = await signInPage(browser, server);
    // With the page's own session (its context's cookies), as the console would save it.
    const saved = await page.request.post(`${server.url}/api/admin/v1/segments`, {
      data: { name: LONG_NAME, filter: { last_activity_days: 60, no_class_days: 14, app_installed: true } },
    });
    expect(saved.status()).toBe(200);
    await page.context().close();
  });
  afterAll(() => closeServerAndBrowser(server, browser));

  it('logs a contact and snoozes a client from the at-risk list: both on the timeline, the client off the list', async () => {
    const page = await signInPage(browser, server);
    await page.goto(`${server.url}/segments/at-risk`);
    const table = page.getByRole('table', { name: 'At risk' });
    const first = table.getByRole('row').nth(1);
    await first.waitFor({ timeout: 30_000 });
    const name = (await first.getByRole('link').first().textContent())!;
    // Each row offers a push only where one can arrive, and says why otherwise.
    const reach = await table.locator('[data-reach]').evaluateAll((cells) => cells.map((cell) => [cell.getAttribute('data-reach'), cell.textContent]));
    for (const [state, text] of reach)
      expect(state === 'reachable' ? /^Push$/.test(text ?? '') : /^No push: /.test(text ?? ''), `${state}: ${text}`).toBe(true);

    await first.getByRole('button', { name: `Log contact with ${name}` }).click();
    const contact = page.getByRole('dialog', { name: `Log a contact with ${name}` });
    await contact.getByRole('radio', { name: 'Called' }).check();
    await contact.getByRole('textbox', { name: 'Note (optional)' }).fill('Back after the holidays');
    await contact.getByRole('button', { name: 'Save' }).click();
    await poll(() => contact.count()).toBe(0);
    await poll(() => first.textContent()).toContain(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date()));

    await first.getByRole('button', { name: `Snooze ${name}` }).click();
    const snooze = page.getByRole('dialog', { name: `Snooze ${name} off the at-risk list` });
    await snooze.getByRole('button', { name: 'Save' }).click();
    await poll(() => snooze.count()).toBe(0);
    await poll(() => table.getByRole('link', { name, exact: true }).count()).toBe(0);

    await page.context().close();
  });

  for (const viewport of VIEWPORTS) {
    for (const scheme of SCHEMES) {
      it(
        `shows the at-risk list, its dialogs, the client page, the sidebar and the audit log at ${viewport.width} px, ${scheme}`,
        { timeout: 300_000 },
        async () => {
          const page = await signInPage(browser, server, { ...viewport, colorScheme: scheme });
          const shot = (name: string) => screenshot(page, `outreach-${name}-${viewport.width}-${scheme}`);
          const findings: Record<string, AxeFinding[]> = {};
          const overflow: Record<string, number> = {};
          const read = async (name: string) => {
            findings[name] = await seriousAxeFindings(page);
            overflow[name] = await sidewaysOverflow(page);
            await shot(name);
          };

          await page.goto(`${server.url}/segments/at-risk`);
          const table = page.getByRole('table', { name: 'At risk' });
          await table.getByRole('row').nth(1).waitFor({ timeout: 30_000 });
          await read('at-risk');
          for (const [button, dialog] of [
            [/^Log contact with /, /^Log a contact with /],
            [/^Snooze /, /^Snooze .* off the at-risk list$/],
          ] as const) {
            await table.getByRole('button', { name: button }).first().click();
            const open = page.getByRole('dialog', { name: dialog });
            await expectInsideWindow(page, open);
            await read(`dialog-${String(button).includes('Snooze') ? 'snooze' : 'contact'}`);
            await page.keyboard.press('Escape');
            await poll(() => open.count()).toBe(0);
          }

          await page.goto(`${server.url}/client/${DEMO_CLIENT}`);
          const glance = page.getByRole('region', { name: 'At a glance' });
          await poll(() => glance.locator('[data-field="visits"]').count()).toBe(1);
          // One date format on the page: no ISO day anywhere in what staff read.
          expect(await page.locator('main').innerText()).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
          await read('client-page');

          if (viewport.width > 600) {
            // The count stays visible however long the segment's name.
            const entry = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(`^${LONG_NAME} \\(`) });
            const count = entry.locator('[data-count]');
            await poll(() => count.isVisible()).toBe(true);
            const [link, counted] = [await entry.boundingBox(), await count.boundingBox()];
            expect(counted!.x + counted!.width).toBeLessThanOrEqual(link!.x + link!.width);
            await entry.scrollIntoViewIfNeeded();
            await shot('sidebar');
          }

          await page.goto(`${server.url}/audit`);
          const row = page.locator('tr, li').filter({ hasText: 'Saved a segment' }).first();
          await row.waitFor({ timeout: 30_000 });
          expect(await row.textContent()).toContain('A class or stream within the last 60 days; No class within the last 14 days; App: installed');
          expect(await row.textContent()).not.toMatch(/[{}"]/);
          await read('audit');

          await page.context().close();
          expect(Object.fromEntries(Object.entries(findings).filter(([, list]) => list.length > 0))).toEqual({});
          expect(Object.fromEntries(Object.entries(overflow).filter(([, pixels]) => pixels > 0))).toEqual({});
        },
      );
    }
  }
});
