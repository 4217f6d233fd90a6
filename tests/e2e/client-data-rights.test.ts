import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser, screenshot, signInPage, type RunningServer } from '../support/e2e';
import { expectInsideWindow, heading, poll, seriousAxeFindings, settle, sidewaysOverflow } from '../support/screens';

const SEARCH = { appId: 'STUDIOE2E', key: 'search-key-for-the-e2e-run' };

/** Export and erasure on the client page and the Data requests page, in Chromium against the real server and demo data. */
describe('a client’s data rights in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let client: { _id: number; email_address: string; first_name: string; last_name: string };

  const api = async <T>(path: string, init?: { method?: string; data?: unknown; headers?: Record<string, string> }): Promise<T> => {
    const response = await page.request.fetch(`${server.url}${path}`, { method: init?.method ?? 'GET', data: init?.data as object, headers: init?.headers });
    expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
    return (await response.json()) as T;
  };
  const openClient = async (target: Page, id: number) => {
    await target.goto(`${server.url}/client/${id}`);
    await poll(() => heading(target, 'Client Details').isVisible()).toBe(true);
  };

  beforeAll(async () => {
    ({ server, browser } = await openServerAndBrowser({ env: { SEARCH_APP_ID: SEARCH.appId, SEARCH_API_KEY: SEARCH.key } }));
    page = await signInPage(browser, server);
    const { clients } = await api<{ clients: (typeof client)[] }>('/api/client/v1/clients/2?perPage=40');
    client = clients.find((candidate) => candidate.email_address && candidate.first_name && candidate.last_name)!;
    expect(client).toBeDefined();
  });
  afterAll(async () => closeServerAndBrowser(server, browser));

  it('downloads the export as JSON from the client page', async () => {
    await openClient(page, client._id);
    await page.getByRole('button', { name: 'Export data' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Everything as one JSON file' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^client-${client._id}-data-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    const document = JSON.parse(fs.readFileSync((await file.path())!, 'utf8')) as { sections: Record<string, Record<string, unknown>[]> };
    expect(document.sections.profile![0]).toMatchObject({ id: client._id, email_address: client.email_address });
    expect(Object.keys(document.sections)).toEqual(
      expect.arrayContaining(['purchases', 'streams', 'favorites', 'devices', 'pushes', 'notes', 'audit_entries']),
    );
  });

  it('shows the erase dialog and the Data requests page at 1440 and 390 px, light and dark, with no serious axe finding', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1440, 390]) {
        const view = await signInPage(browser, server, { width, height: width > 600 ? 900 : 844, colorScheme });
        await openClient(view, client._id);
        await view.getByRole('button', { name: 'Erase client' }).click();
        const dialog = view.getByRole('dialog', { name: 'Erase this client?' });
        await expectInsideWindow(view, dialog);
        await dialog.getByRole('textbox', { name: /Reason/ }).fill('Erasure request by e-mail');
        await screenshot(view, `data-rights-erase-dialog-${width}-${colorScheme}`);
        expect(await seriousAxeFindings(view)).toEqual([]);
        await view.keyboard.press('Escape');
        await view.goto(`${server.url}/data-requests`);
        await poll(() => heading(view, 'Data requests').isVisible()).toBe(true);
        await poll(() => view.getByRole('textbox', { name: 'Audit log entries' }).isVisible()).toBe(true);
        await settle(view);
        await screenshot(view, `data-requests-${width}-${colorScheme}`);
        expect(await seriousAxeFindings(view)).toEqual([]);
        expect(await sidewaysOverflow(view)).toBeLessThanOrEqual(0);
        await view.context().close();
      }
    }
  });

  it('erases the client: the page shows it, search finds none of their names or e-mail, the request is handled', async () => {
    await openClient(page, client._id);
    await page.getByRole('button', { name: 'Erase client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this client?' });
    await dialog.getByRole('textbox', { name: /Reason/ }).fill('Erasure request by e-mail');
    await dialog.getByRole('textbox', { name: /Type the client's e-mail again/ }).fill(client.email_address.toUpperCase());
    await dialog.getByRole('button', { name: 'Erase for good' }).click();
    await poll(() => page.getByRole('heading', { name: `Erased client #${client._id}` }).isVisible()).toBe(true);
    await poll(() => page.getByRole('button', { name: 'Erase client' }).count()).toBe(0);
    await poll(() => page.getByRole('button', { name: 'Send a push notification to client' }).count()).toBe(0);
    // The record reloads without what named them.
    await poll(() => page.locator('main').textContent()).not.toContain(client.email_address);
    await poll(() => page.locator('main').textContent()).not.toContain(client.last_name);
    await settle(page);
    await screenshot(page, 'data-rights-erased-client-1440-light');
    expect(await seriousAxeFindings(page)).toEqual([]);

    for (const word of [client.first_name, client.last_name, client.email_address]) {
      const { results } = await api<{ results: { hits: { objectID: string }[] }[] }>('/1/indexes/*/queries', {
        method: 'POST',
        data: { requests: [{ indexName: 'Customers', query: word, hitsPerPage: 1000 }] },
        headers: { 'x-algolia-application-id': SEARCH.appId, 'x-algolia-api-key': SEARCH.key },
      });
      expect(
        results[0]!.hits.map((hit) => hit.objectID),
        word,
      ).not.toContain(String(client._id));
    }
    await page.goto(`${server.url}/data-requests`);
    const table = page.getByRole('table', { name: 'Data requests' });
    await poll(() =>
      table
        .getByRole('row')
        .filter({ hasText: `erased client #${client._id}` })
        .count(),
    ).toBe(2);
  });
});
