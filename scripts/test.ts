/**
 * `npm test`'s Vitest part. The browser tests run one file at a time and much of it waits on
 * Chromium and their server, so after the console and server tests they kept the two cores half
 * busy. Here they run in a second Vitest process beside the others: 766 s instead of 933 s on two
 * cores (2026-11-28). A third server worker beside them gained nothing (780 s).
 *
 *   npm test                            typecheck, lint, format, then both runs side by side
 *   npm test -- tests/server/audit.test.ts --project server     one Vitest run with these arguments
 *
 * Each line of the browser run is prefixed 'e2e │ '. The exit code is the first failure's.
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';

/** One Vitest run; with a prefix its output goes through this process, a line at a time, marked. */
const vitest = (args: string[], prefix?: string): Promise<number> =>
  new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', ...args], {
      stdio: ['ignore', prefix === undefined ? 'inherit' : 'pipe', prefix === undefined ? 'inherit' : 'pipe'],
      // Piped, Vitest would drop its colours.
      env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) },
    });
    if (prefix !== undefined) {
      for (const stream of [child.stdout!, child.stderr!]) {
        readline.createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix}${line}\n`));
      }
    }
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const args = process.argv.slice(2);
// Side by side, neither run may redraw lines on a terminal: both write through here, a line at a time.
const codes = args.length
  ? [await vitest(args)]
  : await Promise.all([vitest(['--project', 'console', '--project', 'server'], ''), vitest(['--project', 'e2e'], 'e2e │ ')]);
process.exit(codes.find((code) => code !== 0) ?? 0);
