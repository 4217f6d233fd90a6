import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshot, signInPage, startServer, type RunningServer, closeServerAndBrowser, openServerAndBrowser } from '../support/e2e';

// A demo video with a unique title (server/seed/catalogue.ts, i = 120): enabled, VOD | FREE,
// and in the sandbox catalogue unchanged, so the sync has no reason to touch it.
const TITLE = 'Express Warm-up Flow 2';
// A pause per sandbox page, so the progress can be seen before the sync finishes.
const env = { VIMEO_SANDBOX_PAGE_DELAY_MS: '500' };
// expect.poll gives up after 1 s by default; a page of the real console may take longer.
const poll = <T>(read: () => Promise<T> | T, timeout = 15_000) => expect.poll(read, { timeout });

describe('Video Manager in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser({ env })));
  afterAll(() => closeServerAndBrowser(server, browser));

  const openVideo = async (page: Page) => {
    await page.goto(`${server.url}/videos`);
    await page.getByPlaceholder('Search titles').fill(TITLE);
    const row = page.getByRole('row').filter({ hasText: TITLE });
    await poll(() => row.count()).toBe(1);
    return row;
  };
  /** Closing the undoable notification sends the save at once instead of after its countdown. */
  const commitSave = async (page: Page) => {
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/admin/v1/videos/'));
    await page.getByRole('alert').getByRole('button', { name: 'Close' }).click();
    expect((await saved).status()).toBe(200);
  };
  const specVideo = (page: Page) =>
    page.evaluate(async (title) => {
      const { videos } = (await (await fetch('/api/client/v1/videos')).json()) as { videos: { title: string }[] };
      return videos.find((v) => v.title === title);
    }, TITLE);

  it('toggles a video and changes its level; both are kept after a reload and a server restart', async () => {
    const page = await signInPage(browser, server);
    const row = await openVideo(page);
    const toggle = row.getByRole('switch', { name: `Enabled: ${TITLE}` });
    const level = row.getByRole('combobox', { name: `Access Level: ${TITLE}` });
    expect(await toggle.isChecked()).toBe(true);
    await poll(() => level.textContent()).toBe('VOD | FREE');

    await toggle.click();
    await poll(() => page.getByRole('alert').textContent()).toContain('Video disabled');
    await screenshot(page, 'videos-undoable-toggle');
    await commitSave(page);

    await level.click();
    await page.getByRole('option', { name: 'VOD | PREMIUM' }).click();
    await poll(() => page.getByRole('alert').textContent()).toContain('Access level set to VOD | PREMIUM');
    await commitSave(page);

    await page.reload();
    const reloaded = page.getByRole('row').filter({ hasText: TITLE });
    await poll(() => reloaded.count()).toBe(1);
    expect(await reloaded.getByRole('switch').isChecked()).toBe(false);
    expect(await reloaded.getByRole('combobox').textContent()).toBe('VOD | PREMIUM');
    expect(await specVideo(page)).toMatchObject({ enabled: false, access_level_id: 3 });
    await page.context().close();

    expect(await server.stop()).toBe(0);
    server = await startServer({ dataDir: server.dataDir, env });
    const again = await signInPage(browser, server);
    const afterRestart = await openVideo(again);
    expect(await afterRestart.getByRole('switch').isChecked()).toBe(false);
    expect(await afterRestart.getByRole('combobox').textContent()).toBe('VOD | PREMIUM');
    await again.context().close();
  });

  it('runs a sandbox sync from the sidebar, shows its progress until it finishes, and keeps the edits', async () => {
    const page = await signInPage(browser, server);
    await page.goto(`${server.url}/videos`);
    const status = page.getByRole('status', { name: 'Vimeo sync' });
    await poll(() => status.textContent()).toContain('Vimeo has not been synced yet.');

    const sync = page.getByRole('button', { name: 'Sync Vimeo videos' });
    await sync.click();
    await poll(() => page.getByRole('alert').textContent()).toContain('Vimeo sync has started!');
    await sync.click();
    await poll(() => status.textContent()).toMatch(/Vimeo sync (queued|running)/);
    await poll(() => page.getByText('A Vimeo sync is already running.').isVisible()).toBe(true);
    await poll(() => status.textContent()).toMatch(/Vimeo sync running: \d of 4 pages read/);
    await screenshot(page, 'videos-sync-running');

    await poll(() => status.textContent(), 30_000).toMatch(/Last Vimeo sync finished .*: 151 videos · 6 added · 9 updated · 5 newly gone from Vimeo/);
    const runs = await page.evaluate(async () => (await fetch('/api/admin/v1/vimeo-syncs')).json());
    expect(runs).toHaveLength(1);

    await page.goto(`${server.url}/videos?filter=${encodeURIComponent('{"missing":true}')}`);
    await poll(() => page.getByRole('row').filter({ hasText: 'Gone from Vimeo' }).count()).toBe(5);
    await screenshot(page, 'videos-gone-from-vimeo');
    expect(await specVideo(page)).toMatchObject({ enabled: false, access_level_id: 3 });
    await page.context().close();
  });
});
