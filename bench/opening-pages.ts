/**
 * The JavaScript each sidebar entry fetches, opened cold, before its first row: the demo data set
 * (2,000 clients), which is enough for byte counts (they do not depend on the data's size). Uses
 * the console build in dist/ (`npm run build` first).
 *
 *   node --import tsx bench/opening-pages.ts [PATH…]     (default: / and every sidebar entry)
 */
import os from 'node:os';
import { startServer } from '../tests/support/serverProcess';
import { signedInClient } from './lib/client';
import { launchBenchBrowser } from './lib/browser';
import { measureOpeningPages, sidebarPaths } from './lib/openingPages';

const server = await startServer({ fresh: true, env: { LOG_LEVEL: 'warn' } });
try {
  const client = await signedInClient(server);
  const browser = await launchBenchBrowser();
  try {
    const paths = process.argv.length > 2 ? process.argv.slice(2) : [...new Set(['/', ...(await sidebarPaths(browser, client))])];
    console.log('| page | KB before the first row (brotli) | counted until | load (1 min) |\n|---|---|---|---|');
    for (const page of await measureOpeningPages(browser, client, paths)) {
      console.log(`| \`${page.path}\` | ${page.kb} | ${page.until === 'content' ? 'first row' : 'network quiet'} | ${page.load.toFixed(1)} |`);
    }
    console.log(`\n${os.cpus().length} cores`);
  } finally {
    await browser.close();
  }
} finally {
  await server.stop();
}
