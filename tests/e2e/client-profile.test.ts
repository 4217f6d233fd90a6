import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { E2E_STAFF, launchBrowser, screenshot, signInPage, startServer, type RunningServer } from '../support/e2e';
import type { TimelineEntry } from '@contract/timeline';
import type { ClientGlance } from '@contract/glance';

// The machine may be busy: give each wait up to 30 s instead of expect.poll's default second.
const poll = <T>(value: () => Promise<T> | T, message?: string) => expect.poll(value, { timeout: 30_000, interval: 200, message });
const DAY = 86_400_000;
/** For beforeAll, where expect.poll is not allowed: waits up to 5 minutes for `done`. */
async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const until = Date.now() + 300_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
const localDay = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** The client profile as staff use it, in Chromium against the real server with the sandbox Mindbody site imported. */
describe('the client profile in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let clientId: number;
  const api = async <T>(path: string, init?: { method?: string; data?: unknown }): Promise<T> => {
    const response = await page.request.fetch(`${server.url}${path}`, { method: init?.method ?? 'GET', data: init?.data as object });
    expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
    return (await response.json()) as T;
  };

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await signInPage(browser, server);
    // Class visits come from Mindbody: import the sandbox site, then take a client who signed in to a class.
    await api('/api/admin/v1/mindbody/sync', { method: 'POST', data: {} });
    await waitUntil(
      () => api<{ last_outcome: string | null }>('/api/admin/v1/mindbody/sync'),
      (status) => status.last_outcome === 'succeeded',
      'the Mindbody import',
    );
    const { clients } = await api<{ clients: { _id: number }[] }>('/api/client/v1/clients/2?perPage=40&q=sandbox.mindbody.test');
    for (const candidate of clients) {
      const { entries } = await api<{ entries: TimelineEntry[] }>(`/api/admin/v1/clients/${candidate._id}/timeline?kinds=visit&limit=100`);
      if (entries.some((entry) => entry.event === 'visit.signed_in')) {
        clientId = candidate._id;
        break;
      }
    }
    expect(clientId, 'a sandbox client with a class attended').toBeDefined();
    await page.goto(`${server.url}/client/${clientId}`);
    await page.getByRole('heading', { level: 1, name: 'Client Details' }).waitFor({ timeout: 30_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the newest visit as the header's last class", async () => {
    const { entries } = await api<{ entries: TimelineEntry[] }>(`/api/admin/v1/clients/${clientId}/timeline?kinds=visit&limit=100`);
    const newest = entries.find((entry) => entry.event === 'visit.signed_in')!;
    const glance = page.getByRole('region', { name: 'At a glance' });
    await poll(() => glance.locator('[data-field="last_class"]').textContent()).toBe(
      // The console's one date format: the studio's zone (UTC by default), the browser's locale.
      `${newest.title} · ${new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(newest.at))}`,
    );
    await screenshot(page, 'client-profile-page-1440');
  });

  it('grants a 60-day override with a reason and ends it: the timeline shows both with the reason and who, the level returns', async () => {
    const glance = await api<ClientGlance>(`/api/admin/v1/clients/${clientId}/glance`);
    const before = await page.locator('[data-field="vod_access_level"]').textContent();
    await page.getByRole('button', { name: 'Update VOD Access Level' }).click();
    const modal = page.getByRole('dialog', { name: 'Update Client VOD Access Level' });
    await modal.getByRole('combobox', { name: 'New VOD Access Level' }).click();
    await page.getByRole('option', { name: 'VOD | PREMIUM' }).click();
    await modal.getByRole('combobox', { name: 'Override for' }).click();
    await page.getByRole('option', { name: 'Until a date…' }).click();
    await modal.getByLabel('End date').fill(localDay(new Date(Date.now() + 60 * DAY)));
    await modal.getByRole('textbox', { name: 'Reason (optional)' }).fill('Injury: a free month to come back');
    await modal.getByRole('button', { name: 'Save' }).click();
    await poll(() => modal.getByRole('status').textContent()).toBe('Saved');
    await poll(() => modal.count()).toBe(0);
    await poll(() => page.locator('[data-field="vod_access_level"]').textContent()).toBe('VOD | PREMIUM');

    await page.getByRole('button', { name: 'End now' }).click();
    await page.getByRole('dialog', { name: 'End the override now?' }).getByRole('button', { name: 'End now' }).click();
    await poll(() => page.getByRole('note').count()).toBe(0);
    // Back to what the purchases give (else what the override replaced).
    await poll(() => page.locator('[data-field="vod_access_level"]').textContent()).toBe(glance.plan?.name ?? before);

    const timeline = page.getByRole('region', { name: 'Timeline' });
    const items = timeline.getByRole('listitem');
    await poll(() => items.nth(0).textContent()).toMatch(new RegExp(`by ${E2E_STAFF.email}.*Override ended by staff`));
    await poll(() => items.nth(1).textContent()).toMatch(
      new RegExp(`by ${E2E_STAFF.email}.*Override granted: VOD \\| PREMIUM until .*Injury: a free month to come back`),
    );
  });

  it('adds a note and a tag, and the tag filter finds the client', async () => {
    const notes = page.getByRole('region', { name: 'Notes and tags' });
    await notes.getByRole('textbox', { name: 'Add a note' }).fill('Asked about the Saturday timetable');
    await notes.getByRole('button', { name: 'Add note' }).click();
    await poll(() => notes.getByRole('list', { name: 'Notes' }).getByText('Asked about the Saturday timetable').count()).toBe(1);
    await notes.getByRole('button', { name: 'Edit tags' }).click();
    const field = notes.getByRole('combobox', { name: 'Tags' });
    await field.fill('Comeback');
    await field.press('Enter');
    await notes.getByRole('button', { name: 'Save tags' }).click();
    await poll(() => notes.getByRole('group', { name: 'Tags' }).getByText('comeback').count()).toBe(1);
    await poll(() => page.getByRole('region', { name: 'Timeline' }).getByText('Asked about the Saturday timetable').count()).toBe(1);

    const { client } = await api<{ client: { email_address: string }[] }>(`/api/client/v1/client-details/${clientId}`);
    await page.goto(`${server.url}/clients/all?filter=${encodeURIComponent(JSON.stringify({ tag: 'comeback' }))}`);
    await poll(() => page.getByText(client[0]!.email_address, { exact: true }).isVisible(), 'the tagged client in the filtered list').toBe(true);
    await poll(() => page.getByText('1-1 of 1').isVisible()).toBe(true);
    await poll(() => page.getByLabel('Tag').inputValue()).toBe('comeback');
  });

  it("opens the paid clients from the dashboard's subscribers card", async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: /Total VOD Subscribers/ }).click();
    await page.waitForURL(/\/clients\/all\?/);
    expect(decodeURIComponent(new URL(page.url()).search)).toContain('"vod_access_level":[2,3]');
    await poll(() => page.getByRole('heading', { level: 1, name: 'Clients - All' }).isVisible()).toBe(true);
    await page.waitForSelector('table tbody tr td');
    await screenshot(page, 'client-profile-dashboard-subscribers');
  });

  it('fits the client page on a phone', async () => {
    const phone = await signInPage(browser, server, { width: 390, height: 844 });
    await phone.goto(`${server.url}/client/${clientId}`);
    await phone.getByRole('region', { name: 'At a glance' }).locator('[data-field="last_class"]').waitFor();
    await poll(() => phone.getByRole('region', { name: 'Timeline' }).getByRole('listitem').count()).toBeGreaterThan(0);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'client-profile-page-390');
    await phone.context().close();
  });
});
