import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import type { BenchClient } from './client';
import { distribution, type Distribution } from './stats';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = path.resolve('dist');

export interface ConsoleFigures {
  /** The scripts' gzip size (the server's precompressed .gz files), what the target is stated in. */
  initialJsKb: number;
  /** What actually crossed the wire: Chromium asks for brotli, which the server also has. */
  initialJsTransferredKb: number;
  firstClientListMs: Distribution;
  firstDashboardMs: Distribution;
  /** Script files the browser asked for before a cold client list showed its rows: over HTTP/1.1 it fetches six at a time. */
  clientListScripts: number;
  /** The machine's 1-minute load average right after each was measured. */
  load: { initialJs: number; clientList: number; dashboard: number };
}

export const launchBenchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });

/** A new context (empty cache) at desktop size, carrying the bench's staff session. */
export async function signedInContext(browser: Browser, client: BenchClient): Promise<BrowserContext> {
  const origin = new URL(client.url);
  const [name, value] = client.cookie.split('=') as [string, string];
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name, value, domain: origin.hostname, path: '/', httpOnly: true, sameSite: 'Lax' }]);
  return context;
}

/** Cold loads in headless Chromium: a new context (empty cache) per sample, session cookie preset. */
export async function measureConsole(client: BenchClient, samples: number): Promise<ConsoleFigures> {
  const browser = await launchBenchBrowser();
  const coldContext = () => signedInContext(browser, client);
  try {
    // Initial JavaScript: what the browser downloads (compressed) to render the dashboard.
    const context = await coldContext();
    const page = await context.newPage();
    let jsBytes = 0;
    let gzipBytes = 0;
    const pending: Promise<void>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      pending.push(request.sizes().then((sizes) => void (jsBytes += sizes.responseBodySize)));
      const file = path.join(DIST, new URL(request.url()).pathname);
      gzipBytes += fs.existsSync(`${file}.gz`) ? fs.statSync(`${file}.gz`).size : gzipSync(fs.readFileSync(file), { level: 9 }).length;
    });
    await page.goto(`${client.url}/`, { waitUntil: 'networkidle' });
    await Promise.all(pending);
    await context.close();
    const initialJsLoad = os.loadavg()[0]!;

    const scripts = new Map<string, number>();
    const timeTo = async (path: string, ready: string) => {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const ctx = await coldContext();
        const p = await ctx.newPage();
        let rendered = false;
        p.on('request', (request) => {
          if (!rendered && request.resourceType() === 'script') scripts.set(path, (scripts.get(path) ?? 0) + 1 / samples);
        });
        const start = performance.now();
        await p.goto(`${client.url}${path}`);
        await p.waitForSelector(ready, { timeout: 30_000 });
        times.push(performance.now() - start);
        rendered = true;
        await ctx.close();
      }
      return distribution(times);
    };
    const firstClientListMs = await timeTo('/clients/all', 'table tbody tr td');
    const clientListLoad = os.loadavg()[0]!;
    const firstDashboardMs = await timeTo('/dashboard', '[data-stat-state="loaded"]');
    return {
      load: { initialJs: initialJsLoad, clientList: clientListLoad, dashboard: os.loadavg()[0]! },
      clientListScripts: Math.round(scripts.get('/clients/all') ?? 0),
      initialJsKb: Math.round((gzipBytes / 1024) * 10) / 10,
      initialJsTransferredKb: Math.round((jsBytes / 1024) * 10) / 10,
      // A data row of the client list; the dashboard's cards once their figures have loaded.
      firstClientListMs,
      firstDashboardMs,
    };
  } finally {
    await browser.close();
  }
}
