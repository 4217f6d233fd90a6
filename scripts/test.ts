/**
 * `npm test`: the checks and the three Vitest projects, side by side.
 *
 * - the console and server tests, in one Vitest process (CPU-bound: one worker per core);
 * - the browser tests, in a second Vitest process: two files at a time, each with its own server and
 *   Chromium, which mostly wait on each other;
 * - the checks (type checks of console and server, ESLint, Prettier), one after the other in a third
 *   lane: run before the tests they added their time to the whole, beside them they fill the gaps
 *   the browser tests leave.
 *
 *   npm test                                          everything, side by side
 *   npm test -- tests/server/audit.test.ts --project server     one Vitest run with these arguments
 *
 * Each line of a lane other than the first is prefixed ('e2e │ ', 'check │ '). The exit code is the
 * first failure's; the last lines say how long each lane took and how it ended. A failed lane's failures
 * are printed again at the very end: a CI log is often read from its tail, and the lanes' lines are
 * interleaved.
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';

interface Lane {
  name: string;
  prefix: string;
  commands: string[][];
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
async function runLane(lane: Lane): Promise<{ name: string; code: number; seconds: number; kept: string[] }> {
  const started = performance.now();
  let code = 0;
  let kept: string[] = [];
  for (const command of lane.commands) {
    kept = [];
    code = await run(command, lane.prefix, kept);
    if (code !== 0) break;
  }
  return { name: lane.name, code, seconds: Math.round((performance.now() - started) / 1000), kept };
}

const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, '');

/** What a failed command said about its failures: Vitest's "Failed Tests" part, or the end of the output. */
function failures(lines: string[]): string[] {
  const start = lines.findIndex((line) => /⎯+ Failed (Tests|Suites) \d+ ⎯+/.test(plain(line)));
  if (start === -1) return lines.slice(-80);
  const part = lines.slice(start);
  return part.length > 200 ? [...part.slice(0, 180), '…', ...part.slice(-20)] : part;
}

const args = process.argv.slice(2);
if (args.length) process.exit(await run(['npx', 'vitest', 'run', ...args], ''));

const lanes: Lane[] = [
  {
    name: 'console and server tests',
    prefix: '',
    commands: [['npx', 'vitest', 'run', '--project', 'console', '--project', 'console-isolated', '--project', 'server']],
  },
  { name: 'browser tests', prefix: 'e2e │ ', commands: [['npx', 'vitest', 'run', '--project', 'e2e']] },
  {
    name: 'checks (tsc, ESLint, Prettier)',
    prefix: 'check │ ',
    commands: [
      ['npx', 'tsc', '-p', 'tsconfig.json'],
      ['npx', 'tsc', '-p', 'tsconfig.server.json'],
      ['npx', 'eslint', '.'],
      ['npx', 'prettier', '--check', '--log-level', 'warn', '.'],
    ],
  },
];
const results = await Promise.all(lanes.map(runLane));
for (const result of results.filter((result) => result.code !== 0)) {
  console.log(`\n━━━ ${result.name} failed; its failures again ━━━`);
  for (const line of failures(result.kept)) console.log(line);
}
console.log('');
for (const result of results)
  console.log(`${result.code === 0 ? '✓' : '✗'} ${result.name}: ${result.seconds} s${result.code === 0 ? '' : `, exit ${result.code}`}`);
process.exit(results.find((result) => result.code !== 0)?.code ?? 0);
