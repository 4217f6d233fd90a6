import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openDatabase } from '../../server/src/db/client';
import { E2E_STAFF, closeServerAndBrowser, launchBrowser, screenshot, signInPage, startServer, type RunningServer } from '../support/e2e';

const DAY = 86_400_000;
const poll = <T>(value: () => Promise<T> | T, message?: string) => expect.poll(value, { timeout: 30_000, interval: 250, message });

/**
 * Segments, broadcasts and bulk actions as staff use them: a segment matching one client by e-mail (count 1), saved and in
 * the sidebar; a broadcast to it (sent: 1, the push on the client page); the at-risk list; a bulk
 * override on two selected clients (both overrides, two audit entries). Screens at 1440 and 390 px.
 */
describe('reaching many clients at once in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let cookie: string;
  const ids: Record<string, number> = {};
  const api = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...init.headers } });
    return response.json() as Promise<Record<string, unknown> & Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  beforeAll(async () => {
    // The demo studio, then our clients written in while it is stopped: activity 20 days ago, yesterday, none.
    const first = await startServer();
    expect(await first.stop()).toBe(0);
    const database = await openDatabase({ dataDir: first.dataDir });
    const now = Date.now();
    const client = async (name: string, email: string) => {
      const [row] = await database.query<{ id: number }>(
        "INSERT INTO clients (first_name, last_name, email_address, client_status, vod_access_level) VALUES ($1, 'Reach', $2, 'Active', 2) RETURNING id",
        [name, email],
      );
      return (ids[name] = Number(row!.id));
    };
    const visit = (clientId: number, daysAgo: number, n: number) =>
      database.query(
        "INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, class_name, start_at, end_at, attendance, signed_in, imported_at) VALUES ($1, -99, $2, 'Flow', $3, $3, 'signed_in', true, now())",
        [clientId, 990_000_000 + n, new Date(now - daysAgo * DAY).toISOString()],
      );
    await visit(await client('Twenty', 'reach-twenty@e2e.test'), 20, 1);
    const yesterday = await client('Yesterday', 'reach-yesterday@e2e.test');
    await visit(yesterday, 20, 2);
    await visit(yesterday, 1, 3);
    await client('BulkOne', 'one@bulk-e2e.test');
    await client('BulkTwo', 'two@bulk-e2e.test');
    await database.query(
      "INSERT INTO debug_records (client_id, email, platform, firebase_token_new, created_at) VALUES ($1, 'reach-twenty@e2e.test', 'ios', 'e2e-reach-token', now())",
      [ids.Twenty],
    );
    // No quiet hours and room in the daily cap, whenever the suite runs.
    await database.query(
      `INSERT INTO app_settings (key, value) VALUES ('automation.global', '{"quiet_start":"00:00","quiet_end":"00:00","daily_cap":5}')
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    );
    await database.close();
    server = await startServer({ dataDir: first.dataDir });
    browser = await launchBrowser();
    page = await signInPage(browser, server);
    const login = await fetch(`${server.url}/login`, { method: 'POST', body: new URLSearchParams(E2E_STAFF), redirect: 'manual' });
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  });
  afterAll(() => closeServerAndBrowser(server, browser));

  it('previews a segment of one client by e-mail, saves it into the sidebar, and broadcasts to it: sent 1, the push on the client page', async () => {
    await page.goto(`${server.url}/segments/new`);
    await page.getByRole('textbox', { name: 'Search by name or e-mail' }).fill('reach-twenty@e2e.test');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('status').filter({ hasText: '1 client matches' }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Reach twenty');
    await screenshot(page, 'reach-segment-new');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reach twenty' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Reach twenty (1)' }).waitFor();
    await page.getByRole('cell', { name: 'reach-twenty@e2e.test' }).waitFor();
    await screenshot(page, 'reach-segment-list');

    await page.getByRole('button', { name: 'Broadcast' }).click();
    const dialog = page.getByRole('dialog', { name: 'Broadcast to 1 client' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Hello {first_name}');
    await dialog.getByRole('textbox', { name: 'Message' }).fill('We kept your spot in Flow');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('Send this push now to 1 client?', { exact: false }).waitFor();
    await screenshot(page, 'reach-broadcast-confirm');
    await dialog.getByRole('button', { name: 'Send to 1 client' }).click();
    await dialog.getByText('Sending to 1 client.', { exact: false }).waitFor();
    const [broadcast] = (await api('/api/admin/v1/broadcasts?range=[0,0]')) as unknown as { id: number }[];
    // Finished only once nothing is pending or retrying: the counts are written a moment before the status.
    await poll(async () => (await api(`/api/admin/v1/broadcasts/${broadcast!.id}`)).status, 'the broadcast is sent').toBe('sent');
    expect(await api(`/api/admin/v1/broadcasts/${broadcast!.id}`)).toMatchObject({ status: 'sent', counts: { sent: 1, failed: 0, skipped: 0 } });

    await page.goto(`${server.url}/client/${ids.Twenty}`);
    await page.getByRole('button', { name: 'View Recent Push Notifications' }).click();
    const pushes = page.getByRole('region', { name: 'Recent Push Notifications' });
    await pushes.getByRole('cell', { name: 'Hello Twenty' }).waitFor();
    await pushes.getByRole('cell', { name: 'We kept your spot in Flow' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'reach-client-push');
    await page.goto(`${server.url}/broadcasts`);
    // Finished: nothing is pending any more, so pending is not shown.
    await page.getByText('sent 1 · failed 0 · skipped 0').waitFor();
    await screenshot(page, 'reach-broadcasts');
  });

  it('holds a client whose last class was 20 days ago in the at-risk list, and not one who came yesterday', async () => {
    // The list is ranked by value (the demo studio has many paid clients at risk): the API is read to its end.
    const all = (await api('/api/admin/v1/at-risk?perPage=100')) as { clients: { _id: number }[]; total: number };
    const everyone = [...all.clients];
    for (let next = 2; everyone.length < all.total; next++)
      everyone.push(...((await api(`/api/admin/v1/at-risk?perPage=100&page=${next}`)) as typeof all).clients);
    expect(everyone.map((row) => row._id)).toContain(ids.Twenty);
    expect(everyone.map((row) => row._id)).not.toContain(ids.Yesterday);
    await page.goto(`${server.url}/segments/at-risk`);
    const table = page.getByRole('table', { name: 'At risk' });
    await table.getByRole('row').nth(1).waitFor();
    expect(await table.getByRole('link', { name: 'Yesterday Reach' }).count()).toBe(0);
    await screenshot(page, 'reach-at-risk');
  });

  it('grants an override to two selected clients: both overrides and two audit entries', async () => {
    await page.goto(`${server.url}/clients/all?${new URLSearchParams({ filter: JSON.stringify({ q: '@bulk-e2e.test' }) })}`);
    const rows = page.locator('table tbody tr');
    await poll(() => rows.count()).toBe(2);
    for (const name of ['BulkOne', 'BulkTwo']) await rows.filter({ hasText: name }).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Grant access level to 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'Grant an access level to 2 clients' });
    await dialog.getByRole('combobox', { name: 'New VOD Access Level' }).click();
    await page.getByRole('option', { name: 'VOD | PREMIUM' }).click();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByRole('button', { name: 'Grant to 2 clients' }).click();
    await dialog.getByText('Granted 2 of 2 (failed 0). Done.').waitFor();
    await screenshot(page, 'reach-bulk-override');
    for (const id of [ids.BulkOne, ids.BulkTwo]) {
      const { client } = (await api(`/api/client/v1/client-details/${id}`)) as {
        client: { vod_access_level: number; admin_updated_expiration: string | null }[];
      };
      expect(client[0]).toMatchObject({ vod_access_level: 3, admin_updated_expiration: expect.any(String) });
    }
    const audit = (await api(
      `/api/admin/v1/audit?${new URLSearchParams({ filter: JSON.stringify({ action: 'client.override_grant' }), range: '[0,49]' })}`,
    )) as unknown as { client_id: number | null }[];
    expect(audit.filter((entry) => entry.client_id === ids.BulkOne || entry.client_id === ids.BulkTwo)).toHaveLength(2);
  });

  it('fits the new screens on a phone at 390 px', async () => {
    const phone = await signInPage(browser, server, { width: 390, height: 844 });
    for (const [path, name] of [
      ['/segments/at-risk', 'reach-at-risk-phone'],
      ['/broadcasts', 'reach-broadcasts-phone'],
      ['/segments/new', 'reach-segment-new-phone'],
    ] as const) {
      await phone.goto(`${server.url}${path}`);
      await phone.getByRole('heading', { level: 1 }).waitFor();
      await phone.waitForLoadState('networkidle');
      expect(await phone.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
      await screenshot(phone, name);
    }
    await phone.context().close();
  });
});
