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
 * first failure's; the last lines say how long each lane took and how it ended.
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';

interface Lane {
  name: string;
  prefix: string;
  commands: string[][];
}

/** One command; with a prefix its output goes through this process, a line at a time, marked. */
const run = (command: string[], prefix: string): Promise<number> =>
  new Promise((resolve) => {
    const [file, ...args] = command;
    const child = spawn(file!, args, {
      stdio: ['ignore', prefix === '' ? 'inherit' : 'pipe', prefix === '' ? 'inherit' : 'pipe'],
      // Piped, Vitest would drop its colours.
      env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) },
    });
    if (prefix !== '') {
      for (const stream of [child.stdout!, child.stderr!]) {
        readline.createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix}${line}\n`));
      }
    }
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

/** A lane's commands one after the other; it stops at the first that fails. */
async function runLane(lane: Lane): Promise<{ name: string; code: number; seconds: number }> {
  const started = performance.now();
  let code = 0;
  for (const command of lane.commands) {
    code = await run(command, lane.prefix);
    if (code !== 0) break;
  }
  return { name: lane.name, code, seconds: Math.round((performance.now() - started) / 1000) };
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
console.log('');
for (const result of results)
  console.log(`${result.code === 0 ? '✓' : '✗'} ${result.name}: ${result.seconds} s${result.code === 0 ? '' : `, exit ${result.code}`}`);
process.exit(results.find((result) => result.code !== 0)?.code ?? 0);
