import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, signInPage, startServer, type RunningServer } from '../support/e2e';
import { heading, poll, seriousAxeFindings, settle } from '../support/screens';

const OUTAGE = /The server cannot be reached/;
const DEVELOPER_SCREENS = /Unexpected Application Error|Hey developer|A client error occurred|Something went wrong/;

/**
 * What a deploy leaves in the served directory: a new build under new file names, the old ones gone.
 * Made from the built console by giving every hashed asset another name (and every reference to it).
 */
function deployNewBuild(consoleDir: string) {
  const assets = path.join(consoleDir, 'assets');
  const renames = fs
    .readdirSync(assets)
    .map((name) => /^(.+-[A-Za-z0-9_-]{6,})(\.[a-z]+)$/.exec(name))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([name, stem, ext]) => ({ from: name!, to: `${stem}v2${ext}` }));
  expect(renames.length).toBeGreaterThan(10);
  const texts = [path.join(consoleDir, 'index.html'), ...fs.readdirSync(assets).map((name) => path.join(assets, name))].filter((file) =>
    /\.(html|js|css)$/.test(file),
  );
  for (const file of texts) {
    let text = fs.readFileSync(file, 'utf8');
    for (const { from, to } of renames) text = text.split(from).join(to);
    fs.writeFileSync(file, text);
  }
  for (const { from, to } of renames) fs.renameSync(path.join(assets, from), path.join(assets, to));
}

describe('an open tab through an outage and a deploy', () => {
  let browser: Browser | undefined;
  let server: RunningServer | undefined;
  const consoleDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'studio-console-dist-')), 'dist');
  beforeAll(async () => {
    // A copy of the built console, served by the server: the deploy below replaces its files.
    fs.cpSync(path.resolve('dist'), consoleDir, { recursive: true });
    server = await startServer({ env: { CONSOLE_DIR: consoleDir } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(path.dirname(consoleDir), { recursive: true, force: true });
  });

  /** Stops the server, runs `meanwhile`, and starts it again on the same port and data. */
  const restart = async (meanwhile: () => Promise<void> | void = () => undefined) => {
    const { dataDir, url } = server!;
    // What this file checks is the open tab. A clean stop is server-process.test.ts's to check: here a server
    // stopped seconds after its own restart, on a loaded machine, once exited 1 (not yet explained).
    const exitCode = await server!.stop();
    if (exitCode !== 0) console.warn(`The server stopped with ${exitCode}:\n${server!.output().slice(-4000)}`);
    try {
      await meanwhile();
    } finally {
      // Back up even when a check made while it was away failed: the next tests need it.
      server = await startServer({ dataDir, port: Number(new URL(url).port), env: { CONSOLE_DIR: consoleDir } });
    }
  };

  const noDeveloperScreen = async (page: Page) => expect(await page.getByText(DEVELOPER_SCREENS).count()).toBe(0);

  /** Each width and scheme (their colour transitions finished): a screenshot to read, and axe's serious and critical findings (none). */
  const everyLook = async (page: Page, name: string, visible: () => Promise<boolean>) => {
    for (const [width, height, size] of [
      [1440, 900, ''],
      [390, 844, '-phone'],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await settle(page);
        await poll(visible).toBe(true);
        await screenshot(page, `${name}${size}-${colorScheme}`);
        expect(await seriousAxeFindings(page), `${name}${size}-${colorScheme}`).toEqual([]);
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  };

  it('keeps the tab, what was typed and the session while the server is away, and recovers by itself', async () => {
    const page = await signInPage(browser!, server!);
    await page.goto(`${server!.url}/segments/new`);
    await poll(() => heading(page, 'New segment').isVisible()).toBe(true);
    const name = page.getByRole('textbox', { name: 'Name', exact: true });
    await name.fill('Back after the outage');

    await restart(async () => {
      // While it is away: a call fails, the banner says so, the page stays and keeps the text.
      await page.getByRole('button', { name: 'Save' }).click();
      await poll(() => page.getByText(OUTAGE).isVisible()).toBe(true);
      await name.fill('Back after the outage, kept');
      await page.getByRole('spinbutton', { name: 'A class within the last … days' }).fill('30');
      expect(new URL(page.url()).pathname).toBe('/segments/new');
      await noDeveloperScreen(page);
      await everyLook(page, 'outage-banner', () => page.getByText(OUTAGE).isVisible());
    });

    // Back: the banner goes by itself, no sign-in page, the text is there and is saved on Save.
    await poll(() => page.getByText(OUTAGE).count(), 'the banner goes when the server is back').toBe(0);
    expect(new URL(page.url()).pathname).toBe('/segments/new');
    expect(await name.inputValue()).toBe('Back after the outage, kept');
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => heading(page, 'Back after the outage, kept').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toMatch(/^\/segments\/\d+$/);
    await noDeveloperScreen(page);
  });

  it('moves to a new build deployed under the tab when it opens a screen it has not loaded, keeping the URL', async () => {
    const page = await signInPage(browser!, server!);
    await page.goto(`${server!.url}/`);
    await poll(() => heading(page, 'Dashboard').isVisible()).toBe(true);
    const before = await page.evaluate(() => document.querySelector('script[type="module"][src]')?.getAttribute('src'));

    await restart(() => deployNewBuild(consoleDir));

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit Log' }).click();
    await poll(() => heading(page, 'Audit Log').isVisible(), 'the Audit Log opens in the new build').toBe(true);
    expect(new URL(page.url()).pathname).toBe('/audit');
    const after = await page.evaluate(() => document.querySelector('script[type="module"][src]')?.getAttribute('src'));
    expect(after).not.toBe(before);
    expect(after).toMatch(/v2\.js$/);
    await noDeveloperScreen(page);
  });

  it('shows an accessible loading screen while a page’s code downloads', async () => {
    const page = await signInPage(browser!, server!);
    await page.goto(`${server!.url}/`);
    await poll(() => heading(page, 'Dashboard').isVisible()).toBe(true);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/AuditList-*.js', async (route) => {
      await held;
      await route.continue();
    });
    // Opened directly (a link keeps the last page on screen while the next one's code comes).
    await page.goto(`${server!.url}/audit`);
    const spinner = page.getByRole('progressbar', { name: 'Loading' });
    await everyLook(page, 'loading-screen', () => spinner.isVisible());
    release();
    await poll(() => heading(page, 'Audit Log').isVisible()).toBe(true);
    await page.close();
  });

  it('says in its own words that a page could not be loaded, with Reload and Try again, and loads it on Try again', async () => {
    const page = await signInPage(browser!, server!);
    await page.goto(`${server!.url}/`);
    await poll(() => heading(page, 'Dashboard').isVisible()).toBe(true);
    await page.route('**/assets/BroadcastList-*.js', (route) => route.abort('connectionreset'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Broadcasts' }).click();
    const title = page.getByRole('heading', { name: 'This page could not be loaded' });
    await everyLook(page, 'chunk-error', () => title.isVisible());
    expect(await page.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true);
    await noDeveloperScreen(page);
    await page.unroute('**/assets/BroadcastList-*.js');
    await page.getByRole('button', { name: 'Try again' }).click();
    await poll(() => heading(page, 'Broadcasts').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/broadcasts');
    await page.close();
  });
});
