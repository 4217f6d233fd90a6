// `npm run bench`: starts the real server on a large data set and measures it from outside, over
// HTTP and in headless Chromium, like staff would feel it. Prints one table and saves it as JSON.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../tests/support/serverProcess';
import { signedInClient } from './lib/client';
import { pgliteDataset, postgresDataset, type BenchDb, type Dataset, type DatasetSize } from './lib/dataset';
import { meets, type Figure } from './lib/figures';
import { waitForServerToSettle } from './lib/settle';
import { openDatabase } from '../server/src/db/client';
import { benchCases, directCases } from './cases';

const usage = `Usage: npm run bench -- [--db pglite|postgres|both] [--clients N] [--quick | --smoke] [--rebuild] [--only GROUP,...] [--no-build]
  --db       which database(s) to measure (default both; PostgreSQL from BENCH_DATABASE_URL, else local 127.0.0.1:5432)
  --clients  data set size (default 1,000,000 clients with 10,000 videos and 10 views per client; --quick: 20,000; --smoke: 12,000)
  --quick    small data set, few samples, short load runs
  --smoke    what CI runs so the harness cannot rot: every group over a small data set (12,000 clients: just past the
             10,000 that client lists page by number; 200 videos), 5 samples per figure, 1 s load runs; its figures say little
  --rebuild  rebuild the data set even if one of that size exists
  --only     run only these groups (${[...Object.keys(benchCases), ...Object.keys(directCases)].join(', ')})`;

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    clients: { type: 'string' },
    quick: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    rebuild: { type: 'boolean', default: false },
    only: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (!['pglite', 'postgres', 'both'].includes(values.db!)) {
  console.error(`--db must be pglite, postgres or both\n\n${usage}`);
  process.exit(2);
}
if (values.quick && values.smoke) {
  console.error(`--quick and --smoke are two sizes: pick one\n\n${usage}`);
  process.exit(2);
}
const smoke = values.smoke!;
// Smoke mode is quick mode made smaller still (the console group, for one, takes its quick samples).
const quick = values.quick! || smoke;
const mode = smoke ? 'smoke' : quick ? 'quick' : 'full';
const clients = values.clients ? Number(values.clients) : { smoke: 12_000, quick: 20_000, full: 1_000_000 }[mode];
if (!Number.isInteger(clients) || clients < 100) {
  console.error(`--clients must be a whole number of at least 100\n\n${usage}`);
  process.exit(2);
}
const size: DatasetSize = { clients, videos: { smoke: 200, quick: 1_000, full: 10_000 }[mode], viewsPerClient: 10 };
const databases: BenchDb[] = values.db === 'both' ? ['pglite', 'postgres'] : [values.db as BenchDb];
const allGroups = [...Object.keys(benchCases), ...Object.keys(directCases)];
const selected = values.only ? values.only.split(',') : allGroups;
for (const group of selected) {
  if (!allGroups.includes(group)) {
    console.error(`unknown group '${group}'\n\n${usage}`);
    process.exit(2);
  }
}
const groups = selected.filter((group) => group in benchCases);
const direct = selected.filter((group) => group in directCases);

if (!values['no-build']) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });

/**
 * A group that threw. A wait that ran out (a page, a selector, a probe) says the machine was slow, not
 * that the harness is broken: in smoke mode, which CI runs on whatever machine it gets, it is printed
 * and kept in the table but does not fail the run. Every other error does.
 */
const timedOut = new Set<Figure>();
function failedGroup(db: BenchDb, group: string, error: unknown): Figure {
  const message = error instanceof Error ? error.message : String(error);
  const isTimeout = (error instanceof Error && error.name === 'TimeoutError') || /\btime(?:d)? ?out\b|timeout/i.test(message);
  console.error(`[${db}] ${group} ${isTimeout ? 'timed out' : 'failed'}: ${message}`);
  const figure: Figure = { group, name: `(${isTimeout ? 'timed out' : 'failed'}: ${message.split('\n')[0]!.slice(0, 80)})`, unit: 'ms', value: NaN };
  if (isTimeout) timedOut.add(figure);
  return figure;
}

const results: Record<BenchDb, { dataset: Omit<Dataset, 'env'>; figures: Figure[] }> = {} as never;
for (const db of databases) {
  const dataset = db === 'pglite' ? pgliteDataset(size, values.rebuild!) : await postgresDataset(size, values.rebuild!);
  const figures: Figure[] = [];
  if (groups.length > 0) {
    const server = await startServer({
      dataDir: dataset.env.DATA_DIR,
      env: { ...dataset.env, SEED_DEMO: 'false', LOG_LEVEL: 'warn', SEARCH_RATE_LIMIT_PER_MINUTE: '1000000' },
    });
    try {
      const client = await signedInClient(server);
      // The groups measure a running server, not one in the minute after a restart (the
      // start-up video figures over 10,000,000 views ran beside the first group, the cold console).
      const settled = await waitForServerToSettle(server.process.pid!, dataset.env.DATABASE_URL || undefined, smoke ? 30_000 : 300_000);
      console.log(`[${db}] start-up work ${settled.idle ? 'over' : 'still running'} after ${settled.seconds} s`);
      figures.push({
        group: 'server',
        name: settled.idle ? 'start-up work over, before the first group' : 'start-up work still running at the limit',
        unit: 's',
        value: settled.seconds,
        load: os.loadavg()[0],
      });
      const context = {
        client,
        quick,
        smoke,
        samples: { smoke: 5, quick: 20, full: 300 }[mode],
        loadSeconds: { smoke: 1, quick: 2, full: 15 }[mode],
        serverPid: server.process.pid,
      };
      for (const group of groups) {
        console.log(`[${db}] ${group}…`);
        const groupStarted = performance.now();
        try {
          // Each figure with the machine's load beside it (a group may have noted it as it measured).
          figures.push(...(await benchCases[group]!(context)).map((figure) => ({ load: os.loadavg()[0], ...figure })));
          console.log(`[${db}] ${group} took ${((performance.now() - groupStarted) / 1000).toFixed(1)} s`);
        } catch (error) {
          figures.push(failedGroup(db, group, error));
        }
      }
    } finally {
      // Shutdown time after real load (was an e2e assertion; speed belongs here): what a deploy or a
      // supervisor restart waits for.
      const stopStarted = performance.now();
      const exitCode = await server.stop();
      const stopMs = Math.round(performance.now() - stopStarted);
      figures.push({
        group: 'server',
        name: 'clean shutdown after the run',
        unit: 'ms',
        target: { kind: 'max', value: 5000 },
        value: exitCode === 0 ? stopMs : NaN,
        load: os.loadavg()[0],
      });
    }
  }
  // In-process groups, once the server has let go of the database.
  for (const group of direct) {
    console.log(`[${db}] ${group}…`);
    const groupStarted = performance.now();
    const database = await openDatabase(dataset.env.DATABASE_URL ? { url: dataset.env.DATABASE_URL, dataDir: '' } : { dataDir: dataset.env.DATA_DIR! });
    try {
      figures.push(...(await directCases[group]!(database, { quick, smoke })).map((figure) => ({ load: os.loadavg()[0], ...figure })));
      console.log(`[${db}] ${group} took ${((performance.now() - groupStarted) / 1000).toFixed(1)} s`);
    } catch (error) {
      figures.push(failedGroup(db, group, error));
    } finally {
      await database.close();
    }
  }
  const { env: _env, ...datasetInfo } = dataset;
  results[db] = { dataset: datasetInfo, figures };
}

// One table: each figure next to its target, databases side by side.
const keyOf = (f: Figure) => `${f.group} | ${f.name}`;
const keys = [...new Set(databases.flatMap((db) => results[db].figures.map(keyOf)))];
const format = (f: Figure | undefined) => {
  if (!f) return '—';
  if (Number.isNaN(f.value)) return 'failed';
  const verdict = meets(f);
  const load = f.load === undefined ? '' : ` (load ${f.load.toFixed(1)})`;
  return `${f.value.toLocaleString('en-US')} ${f.unit}${verdict === undefined ? '' : verdict ? ' ✓' : ' ✗'}${load}`;
};
const rows = keys.map((key) => {
  const [group, name] = key.split(' | ') as [string, string];
  const first = databases.map((db) => results[db].figures.find((f) => keyOf(f) === key)).find(Boolean)!;
  const target = first.target ? `${first.target.kind === 'max' ? '≤' : '≥'} ${first.target.value.toLocaleString('en-US')} ${first.unit}` : '';
  return [group, name, target, ...databases.map((db) => format(results[db].figures.find((f) => keyOf(f) === key)))];
});
const header = ['group', 'figure', 'target', ...databases];
const table = [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
// Figures from a busy machine read slower than the product is: say how busy it was.
const machine = `${os.cpus().length} cores, load average ${os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ')} (1 / 5 / 15 min) at the end`;
console.log(
  `\n${clients.toLocaleString('en-US')} clients, ${size.videos.toLocaleString('en-US')} videos, ~${(clients * size.viewsPerClient).toLocaleString('en-US')} views${mode === 'full' ? '' : ` (${mode} mode)`}; ${machine}\n`,
);
console.log(table);

// A run of some groups is named after them: it must not replace the day's run of every group.
const suffix = [...(mode === 'full' ? [] : [mode]), ...(values.only ? [selected.join('+')] : [])];
const file = path.resolve('bench/results', `${[new Date().toISOString().slice(0, 10), ...suffix].join('-')}.json`);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), quick, smoke, size, machine, results, table }, null, 2)}\n`);
console.log(`\nSaved ${path.relative(process.cwd(), file)}`);

// A figure that could not be measured means the harness (or the product) is broken: fail, so CI
// notices (in smoke mode a wait that ran out on a slow machine does not count). Missed targets are
// not failures; the table shows them.
const broken = databases.flatMap((db) =>
  results[db].figures.filter((f) => Number.isNaN(f.value) && !(smoke && timedOut.has(f))).map((f) => `[${db}] ${f.group}: ${f.name}`),
);
if (broken.length) {
  console.error(`\n${broken.length} figure(s) could not be measured:\n${broken.join('\n')}`);
  process.exitCode = 1;
}
