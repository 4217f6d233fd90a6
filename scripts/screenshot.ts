// Regenerates docs/screenshot.png, the README's picture of the console: the dashboard with its
// figures and charts, and the customer search open on a few hits, at 1440 x 900 in the light theme.
//
//   npm run screenshot              (builds the console first)
//   node --import tsx scripts/screenshot.ts [--out FILE] [--dark]
//
// It starts the real server on a fresh PGlite directory with the demo data, signs in through the
// login page in headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium) and takes the picture.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const out = path.resolve(args.includes('--out') ? args[args.indexOf('--out') + 1]! : 'docs/screenshot.png');
const colorScheme = args.includes('--dark') ? 'dark' : 'light';
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SEARCH_FOR = process.env.SCREENSHOT_SEARCH ?? 'sofia w';

if (!fs.existsSync('dist/index.html')) throw new Error('The console is not built: run `npm run build` first (or `npm run screenshot`).');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-screenshot-'));
const staff = { email: 'screenshot@studio.test', password: crypto.randomBytes(18).toString('base64url') };
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(dataDir, 'data'),
    DATABASE_URL: '',
    STAFF_EMAIL: staff.email,
    STAFF_PASSWORD: staff.password,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server stopped (${server.exitCode})`);
    if (
      await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error('the server did not start within 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme, deviceScaleFactor: 1 });
    await page.goto(`${url}/`);
    await page.waitForURL(/\/login/);
    await page.getByLabel('Email').fill(staff.email);
    await page.getByLabel('Password').fill(staff.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The figures, then both charts, drawn at their measured width.
    await page.locator('[data-stat-state="loaded"]').nth(2).waitFor({ timeout: 60_000 });
    await page.getByRole('img', { name: /Daily video plays/ }).waitFor();
    await page.getByRole('img', { name: /Paid subscribers/ }).waitFor();

    const box = page.getByRole('combobox', { name: 'Search customers' });
    await box.click();
    await page.locator('form[role="search"][data-ready="true"]').waitFor();
    await box.pressSequentially(SEARCH_FOR, { delay: 60 });
    // The hits of this query (highlighted), not those of the empty one shown while it was typed.
    await page.getByRole('listbox', { name: 'Customer search results' }).getByRole('option').first().locator('mark').first().waitFor();
    // Avatars: Gravatar, or the built-in fallback where it cannot be reached.
    await page.waitForFunction(() => Array.from(document.querySelectorAll('img')).every((img) => img.complete));
    await page.waitForFunction(() =>
      document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
    );
    // No text cursor blinking in the picture.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.style.setProperty('caret-color', 'transparent'));

    fs.mkdirSync(path.dirname(out), { recursive: true });
    await page.screenshot({ path: out });
    console.log(`wrote ${path.relative(process.cwd(), out)}`);
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
