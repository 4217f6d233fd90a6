import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { E2E_STAFF, startServer, type RunningServer } from './serverProcess';

export { E2E_STAFF, startServer, type RunningServer } from './serverProcess';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshotDir = path.resolve('tests/e2e/screenshots');

/**
 * The browser contexts (tabs and their cookies) a test opened, closed when it ends
 * (tests/support/e2e-setup.ts): left open, each page of every earlier test kept running its timers
 * and animations beside the next ones for the rest of the file. Contexts opened in a beforeAll are
 * the file's, and stay.
 */
const openedInTest = new Set<BrowserContext>();
let testRunning = false;
export const testContexts = {
  start() {
    testRunning = true;
  },
  /** Each open tab of the test: its address and the start of its visible text. */
  async describeOpenPages(): Promise<string[]> {
    const lines: string[] = [];
    for (const page of [...openedInTest].flatMap((context) => context.pages())) {
      const text = await page.evaluate(() => document.body?.innerText ?? '').catch((error: Error) => `(unreadable: ${error.message})`);
      lines.push(`── tab at ${page.url()}:`, text.replace(/\n{2,}/g, '\n').slice(0, 1_500));
    }
    return lines;
  },
  async closeAll() {
    testRunning = false;
    const contexts = [...openedInTest];
    openedInTest.clear();
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
  },
};

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    if (testRunning) openedInTest.add(context);
    // A route handler still running when its tab closes (a held answer released as the test ends) fails
    // on the closed tab, as an unhandled rejection that fails the whole run: routes end quietly first.
    const close = context.close.bind(context);
    context.close = async (...closeArgs) => {
      await Promise.all(context.pages().map((page) => page.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => undefined)));
      await context.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => undefined);
      return close(...closeArgs);
    };
    return context;
  };
  return browser;
}

/** Opens the console, is sent to the login page, signs in there and lands back in the console. */
export async function signInPage(
  browser: Browser,
  server: RunningServer,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await page.waitForURL(/\/login/);
  await page.getByLabel('Email').fill(E2E_STAFF.email);
  await page.getByLabel('Password').fill(E2E_STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  return page;
}

export async function screenshot(page: Page, name: string) {
  // Screenshots are for a person to open and read (README); on CI nobody does, and they cost the run time.
  if (process.env.CI && !process.env.SCREENSHOTS) return;
  fs.mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: false });
}

/** A real server and Chromium for one describe block: `({ server, browser } = await openServerAndBrowser())`. */
export async function openServerAndBrowser(options?: Parameters<typeof startServer>[0]): Promise<{ server: RunningServer; browser: Browser }> {
  const server = await startServer(options);
  return { server, browser: await launchBrowser() };
}

/** Closes what openServerAndBrowser opened, whatever of it did open. */
export async function closeServerAndBrowser(server: RunningServer | undefined, browser: Browser | undefined) {
  await browser?.close();
  await server?.stop();
}
