/**
 * Latency of the dashboard calls on an existing data set, in-process (app.inject: routing, session
 * check, queries, serialisation; no sockets). `npm run bench -- --only stats` measures the same calls
 * over HTTP on the harness's own data sets; this one runs on any DATA_DIR or DATABASE_URL you seeded:
 *
 *   DATA_DIR=/tmp/i8/data npm run seed -- --clients 1000000
 *   DATA_DIR=/tmp/i8/data node --import tsx bench/stats-latency.ts [--samples 200] [--json]
 *
 * The server must not be running on the same PGlite DATA_DIR. Exits 1 when the stats p95 is 100 ms or more.
 */
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { openDatabase } from '../server/src/db/client';
import { upsertStaffUser } from '../server/src/staff/accounts';
import { timeIt, type Distribution } from './lib/stats';

export const STATS_P95_BUDGET_MS = 100;
const BENCH_STAFF = { email: 'bench@studio.test', password: 'bench-password-1' };

async function signIn(app: FastifyInstance): Promise<string> {
  await upsertStaffUser(app.database, { ...BENCH_STAFF, nickname: 'Bench', role: 'owner' });
  const response = await app.inject({
    method: 'POST',
    url: `${app.pathPrefix}/login`,
    payload: new URLSearchParams(BENCH_STAFF).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const session = response.cookies.find((c) => c.name === 'studio_session');
  if (response.statusCode !== 303 || !session) throw new Error(`bench sign-in failed: ${response.statusCode}`);
  return `studio_session=${session.value}`;
}

/** Times GET `url` `samples` times in a row on `app`; any answer but 200 fails the run. */
export async function timeInjectedGet(app: FastifyInstance, url: string, cookie: string, samples: number) {
  let body: unknown;
  const timing = await timeIt(samples, async () => {
    const response = await app.inject({ method: 'GET', url, headers: { cookie } });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
    body = response.json();
  });
  return { timing, body };
}

const line = (name: string, d: Distribution) =>
  `${name}: p50 ${d.p50} ms, p95 ${d.p95} ms, p99 ${d.p99} ms, mean ${d.mean} ms (${d.samples} samples after warm-up)`;

async function main() {
  const { values } = parseArgs({ options: { samples: { type: 'string', default: '200' }, json: { type: 'boolean', default: false } } });
  const samples = Number(values.samples);
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
  const app = await buildApp({ config, database, logger: false });
  try {
    await app.ready();
    const [size] = await database.query<{ clients: number; views: number }>(
      `SELECT (SELECT count(*) FROM clients)::bigint AS clients, (SELECT coalesce(sum(plays), 0) FROM category_plays_daily)::bigint AS views`,
    );
    const cookie = await signIn(app);
    const stats = await timeInjectedGet(app, `${app.pathPrefix}/api/stats/v1`, cookie, samples);
    const trends = await timeInjectedGet(app, `${app.pathPrefix}/api/admin/v1/stats/trends`, cookie, Math.max(10, Math.ceil(samples / 4)));
    const where = database.kind === 'pglite' ? `PGlite ${config.dataDir}` : 'PostgreSQL';
    if (values.json) {
      console.log(JSON.stringify({ database: where, ...size, stats: stats.timing, trends: trends.timing, figures: stats.body }));
    } else {
      console.log(`${where}: ${Number(size!.clients).toLocaleString('en-US')} clients, ${Number(size!.views).toLocaleString('en-US')} views`);
      console.log(`figures: ${JSON.stringify(stats.body)}`);
      console.log(line('GET /api/stats/v1', stats.timing));
      console.log(line('GET /api/admin/v1/stats/trends', trends.timing));
    }
    if (stats.timing.p95 >= STATS_P95_BUDGET_MS) {
      console.error(`stats p95 ${stats.timing.p95} ms is over the ${STATS_P95_BUDGET_MS} ms budget`);
      process.exitCode = 1;
    }
  } finally {
    await app.close();
    await database.close();
  }
}

await main();
