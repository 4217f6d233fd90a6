/**
 * `npm test`: the checks and the three Vitest projects.
 *
 * - the console and server tests, in one Vitest process (CPU-bound: one worker per core);
 * - then the browser tests, in a second Vitest process: two files at a time, each with its own server
 *   and Chromium;
 * - the checks (type checks of console and server, ESLint, Prettier), one after the other, from the
 *   start, beside both, at the lowest CPU priority.
 *
 * The two test lanes take turns instead of running side by side. Each keeps both cores busy on its own
 * (measured alone on this 2-core machine: console and server tests 1,200 s wall for 2,220 CPU-seconds,
 * browser tests 1,210 s for 2,280), so side by side saved no time, and starved every test: a starved
 * test does not just wait longer, each of its waits polls (Testing Library's queries, expect.poll's
 * page queries) the more often the longer it waits (the console tests took 240 CPU-seconds alone,
 * ~600 beside the browser tests), and hang detectors fired on tests that were only waiting their turn.
 * The checks never poll; at nice 19 they take what the tests leave idle.
 *
 *   npm test                                          everything
 *   npm test -- tests/server/audit.test.ts --project server     one Vitest run with these arguments
 *
 * Each line of a lane other than the first is prefixed ('e2e │ ', 'check │ '). The exit code is the
 * first failure's; the last lines say how long each lane took and how it ended. A failed lane's failures
 * are printed again at the very end: a CI log is often read from its tail, and the lanes' lines are
 * interleaved.
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { failures, testFilesIn, unreported } from './testReport';

interface Lane {
  name: string;
  prefix: string;
  commands: string[][];
  /** Starts when this lane has ended (whatever its outcome: every lane's failures are reported). */
  after?: string;
  /** Run at the lowest CPU priority (nice 19). */
  background?: boolean;
  /** The test files the lane runs, to name those that never reported when a worker died. */
  testFiles?: string[];
}

/** One command; given `kept`, its output goes through this process a line at a time, marked with the prefix, and is kept. */
const run = (command: string[], prefix: string, kept?: string[]): Promise<number> =>
  new Promise((resolve) => {
    const [file, ...args] = command;
    const child = spawn(file!, args, {
      stdio: ['ignore', kept ? 'pipe' : 'inherit', kept ? 'pipe' : 'inherit'],
      // Piped, Vitest would drop its colours.
      env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) },
    });
    if (kept) {
      for (const stream of [child.stdout!, child.stderr!]) {
        readline.createInterface({ input: stream }).on('line', (line) => {
          process.stdout.write(`${prefix}${line}\n`);
          kept?.push(line);
        });
      }
    }
    // 'close', not 'exit': the last lines may still be in the pipes when the process exits.
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

/** A lane's commands one after the other; it stops at the first that fails. */
type LaneResult = { name: string; code: number; seconds: number; kept: string[]; lane: Lane };

async function runLane(lane: Lane): Promise<LaneResult> {
  const started = performance.now();
  let code = 0;
  let kept: string[] = [];
  for (const command of lane.commands) {
    kept = [];
    code = await run(lane.background ? ['nice', '-n', '19', ...command] : command, lane.prefix, kept);
    if (code !== 0) break;
  }
  return { name: lane.name, code, seconds: Math.round((performance.now() - started) / 1000), kept, lane };
}

const args = process.argv.slice(2);
if (args.length) process.exit(await run(['npx', 'vitest', 'run', ...args], ''));

const lanes: Lane[] = [
  {
    name: 'console and server tests',
    prefix: '',
    commands: [['npx', 'vitest', 'run', '--project', 'console', '--project', 'console-isolated', '--project', 'server']],
    testFiles: [...testFilesIn('tests/console'), ...testFilesIn('tests/server')],
  },
  {
    name: 'browser tests',
    prefix: 'e2e │ ',
    after: 'console and server tests',
    commands: [['npx', 'vitest', 'run', '--project', 'e2e']],
    testFiles: testFilesIn('tests/e2e'),
  },
  {
    name: 'checks (tsc, ESLint, Prettier)',
    prefix: 'check │ ',
    background: true,
    commands: [
      ['npx', 'tsc', '-p', 'tsconfig.json'],
      ['npx', 'tsc', '-p', 'tsconfig.server.json'],
      ['npx', 'eslint', '.'],
      ['npx', 'prettier', '--check', '--log-level', 'warn', '.'],
    ],
  },
];
const running = new Map<string, Promise<LaneResult>>();
for (const lane of lanes) {
  const before = lane.after ? running.get(lane.after) : undefined;
  running.set(lane.name, before ? before.then(() => runLane(lane)) : runLane(lane));
}
const results = await Promise.all(running.values());
for (const result of results.filter((result) => result.code !== 0)) {
  console.log(`\n━━━ ${result.name} failed; its failures again ━━━`);
  for (const line of [...failures(result.kept), ...unreported(result.kept, result.lane.testFiles ?? [])]) console.log(line);
}
console.log('');
for (const result of results)
  console.log(`${result.code === 0 ? '✓' : '✗'} ${result.name}: ${result.seconds} s${result.code === 0 ? '' : `, exit ${result.code}`}`);
process.exit(results.find((result) => result.code !== 0)?.code ?? 0);
