/**
 * Two console builds compared load for load: cold /clients/all loads alternate between two servers
 * on one PostgreSQL data set, each serving its own build (CONSOLE_DIR). This machine's speed drifts
 * by a third within an hour, so one build measured after the other compares the hours as much as
 * the builds.
 *
 *   node --import tsx bench/ab-cold.ts postgres://…/studio_bench_… path/to/dist-a path/to/dist-b [loads each]
 */
import { startServer } from '../tests/support/serverProcess';
import { signedInClient } from './lib/client';
import { launchBenchBrowser, signedInContext } from './lib/browser';
import { waitForServerToSettle } from './lib/settle';
const [url, dirA, dirB] = process.argv.slice(2);
if (!url?.startsWith('postgres') || !dirA || !dirB) {
  console.error('Usage: node --import tsx bench/ab-cold.ts POSTGRES_URL DIST_A DIST_B [LOADS_EACH]');
  process.exit(2);
}
const n = Number(process.argv[5] ?? 15);
const env = (dir: string) => ({ DATABASE_URL: url, SEED_DEMO: 'false', LOG_LEVEL: 'warn', CONSOLE_DIR: dir });
const a = await startServer({ env: env(dirA) });
const b = await startServer({ env: env(dirB) });
try {
  const clients = [await signedInClient(a), await signedInClient(b)];
  await waitForServerToSettle(a.process.pid!, url, 120_000);
  await waitForServerToSettle(b.process.pid!, url, 120_000);
  const browser = await launchBenchBrowser();
  const times: number[][] = [[], []];
  for (let i = 0; i < n * 2; i++) {
    const which = i % 2;
    const ctx = await signedInContext(browser, clients[which]!);
    const p = await ctx.newPage();
    const start = performance.now();
    await p.goto(`${clients[which]!.url}/clients/all`);
    await p.waitForSelector('table tbody tr td', { timeout: 30_000 });
    times[which]!.push(performance.now() - start);
    await ctx.close();
  }
  await browser.close();
  for (const [k, t] of times.entries()) {
    t.sort((x, y) => x - y);
    console.log(k === 0 ? 'A' : 'B', 'median', t[Math.floor(t.length / 2)]!.toFixed(0), 'all', t.map((x) => x.toFixed(0)).join(' '));
  }
} finally {
  a.process.kill('SIGTERM');
  b.process.kill('SIGTERM');
}
