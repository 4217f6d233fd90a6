/**
 * Console builds compared load for load: cold /clients/all loads take turns between servers on one
 * PostgreSQL data set, each serving its own build (CONSOLE_DIR). This machine's speed drifts
 * by a third within an hour, so one build measured after the other compares the hours as much as
 * the builds.
 *
 *   node --import tsx bench/ab-cold.ts postgres://…/studio_bench_… path/to/dist-a path/to/dist-b [more builds…] [loads each]
 */
import { startServer } from '../tests/support/serverProcess';
import { signedInClient } from './lib/client';
import { launchBenchBrowser, signedInContext } from './lib/browser';
import { waitForServerToSettle } from './lib/settle';

const args = process.argv.slice(2);
const url = args[0];
const loadsEach = /^\d+$/.test(args.at(-1) ?? '') ? Number(args.pop()) : 15;
const dirs = args.slice(1);
if (!url?.startsWith('postgres') || dirs.length < 2) {
  console.error('Usage: node --import tsx bench/ab-cold.ts POSTGRES_URL DIST_A DIST_B [DIST_C…] [LOADS_EACH]');
  process.exit(2);
}
const servers = [];
try {
  for (const dir of dirs) servers.push(await startServer({ env: { DATABASE_URL: url, SEED_DEMO: 'false', LOG_LEVEL: 'warn', CONSOLE_DIR: dir } }));
  const clients = await Promise.all(servers.map((server) => signedInClient(server)));
  for (const server of servers) await waitForServerToSettle(server.process.pid!, url, 120_000);
  const browser = await launchBenchBrowser();
  const times: number[][] = dirs.map(() => []);
  // Round robin, so each build meets the machine's drift equally.
  for (let i = 0; i < loadsEach * dirs.length; i++) {
    const which = i % dirs.length;
    const context = await signedInContext(browser, clients[which]!);
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(`${clients[which]!.url}/clients/all`);
    await page.waitForSelector('table tbody tr td', { timeout: 30_000 });
    times[which]!.push(performance.now() - start);
    await context.close();
  }
  await browser.close();
  for (const [k, t] of times.entries()) {
    t.sort((x, y) => x - y);
    console.log(dirs[k], 'median', t[Math.floor(t.length / 2)]!.toFixed(0), 'all', t.map((x) => x.toFixed(0)).join(' '));
  }
} finally {
  for (const server of servers) server.process.kill('SIGTERM');
}
