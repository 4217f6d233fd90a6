import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { E2E_STAFF, screenshot, signInPage, type RunningServer, closeServerAndBrowser, openServerAndBrowser } from '../support/e2e';

const poll = <T>(read: () => Promise<T> | T, timeout = 15_000) => expect.poll(read, { timeout });

describe('Audit Log and My sessions in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser()));
  afterAll(() => closeServerAndBrowser(server, browser));

  it('shows a change made by staff in the Audit Log with who and before/after, filtered by action', async () => {
    const page = await signInPage(browser, server);
    // A staff action through the console's own API, with this browser's session.
    const changed = await page.evaluate(async () => {
      const list = await (await fetch('/api/admin/v1/videos?range=[0,0]&sort=["id","ASC"]')).json();
      const video = list[0] as { id: number; title: string; access_level_id: number };
      const level = video.access_level_id === 3 ? 1 : 3;
      const response = await fetch(`/api/admin/v1/videos/${video.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ access_level_id: level, title: `${video.title} (audited)` }),
      });
      return { status: response.status, id: video.id, title: video.title, before: video.access_level_id, after: level };
    });
    expect(changed.status).toBe(200);

    await page.goto(`${server.url}/audit`);
    await page.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor();
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Edited a video' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Edited a video' });
    await poll(() => row.count()).toBe(1);
    await poll(() => row.textContent()).toContain(E2E_STAFF.email);
    expect(await row.textContent()).toContain(`Video #${changed.id}`);
    // Fields and levels in words.
    const level = (id: number) => ['VOD | FREE', 'VOD | BASIC', 'VOD | PREMIUM'][id - 1];
    expect(await row.getByTitle(`Access level: ${level(changed.before)} → ${level(changed.after)}`).count()).toBe(1);
    expect(await row.getByTitle(`Title: ${changed.title} → ${changed.title} (audited)`).count()).toBe(1);
    await poll(() => page.getByRole('row').filter({ hasText: 'Signed in' }).count()).toBe(0);
    await screenshot(page, 'audit-log-filtered');

    // Without the filter (an empty one in the URL replaces the remembered one) the sign-in shows too.
    await page.goto(`${server.url}/audit?filter=${encodeURIComponent('{}')}`);
    await page.getByRole('combobox', { name: 'Action' }).waitFor();
    await poll(() => page.getByRole('row').filter({ hasText: 'Signed in' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'audit-log');
  });

  it('lists my sessions from the user menu and ends another one', async () => {
    const other = await signInPage(browser, server, { width: 390, height: 844 });
    const page = await signInPage(browser, server);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'My sessions' }).click();
    await page.getByRole('heading', { level: 1, name: 'My sessions' }).waitFor();
    const rows = page.getByRole('row');
    await poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    const current = rows.filter({ hasText: 'This session' });
    expect(await current.count()).toBe(1);
    await screenshot(page, 'my-sessions');

    const before = await rows.count();
    await page.getByRole('button', { name: 'End all other sessions' }).click();
    await poll(() => rows.count()).toBe(2);
    expect(before).toBeGreaterThan(2);
    // The other browser is signed out: its next API call answers 401.
    const status = await other.evaluate(async () => (await fetch('/api/admin/v1/sessions')).status);
    expect(status).toBe(401);
  });
});
