import { describe, expect, it } from 'vitest';
import { failures, testFilesIn, unreported } from '../../scripts/testReport';

// Lines as Vitest 4 prints them to a pipe with FORCE_COLOR (CI's log), copied from a failed run.
const E = '\x1b';
const fileLine = (file: string, tests: string) =>
  ` ${E}[32m✓${E}[39m ${E}[30m${E}[42m server ${E}[49m${E}[39m ${file} ${E}[2m(${E}[22m${E}[2m${tests}${E}[22m${E}[2m)${E}[22m${E}[33m 14840${E}[2mms${E}[22m${E}[39m`;
const WORKER_DIED = [
  `${E}[31m⎯⎯⎯⎯⎯⎯${E}[39m${E}[1m${E}[41m Unhandled Error ${E}[49m${E}[22m${E}[31m⎯⎯⎯⎯⎯⎯⎯${E}[39m`,
  `${E}[31m${E}[1mError${E}[22m: [vitest-pool]: Worker forks emitted error.${E}[39m`,
  `${E}[31m${E}[1mCaused by: Error${E}[22m: Worker exited unexpectedly${E}[39m`,
];

describe("npm test's report of a failed lane", () => {
  const files = ['tests/server/a.test.ts', 'tests/server/b.test.ts', 'tests/console/c.test.tsx'];

  it('names the files that never reported when a worker died, and what was said of the death', () => {
    const lines = [
      fileLine('tests/server/a.test.ts', '4 tests'),
      fileLine('tests/console/c.test.tsx', '1 test'),
      '<--- Last few GCs --->',
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      `     ${E}[33m${E}[2m✓${E}[22m${E}[39m survives a SIGKILL mid-broadcast ${E}[33m 1281${E}[2mms${E}[22m${E}[39m`,
      ...WORKER_DIED,
    ];
    expect(unreported(lines, files)).toEqual([
      '',
      'A worker exited; these files never said how they ended:',
      '  tests/server/b.test.ts',
      'What the output said of a process that died:',
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
    ]);
  });

  it('counts a file with failed or skipped tests as reported', () => {
    const lines = [
      fileLine('tests/server/a.test.ts', '4 tests'),
      ` ${E}[31m❯${E}[39m ${E}[30m${E}[42m server ${E}[49m${E}[39m tests/server/b.test.ts ${E}[2m(${E}[22m${E}[2m5 tests${E}[22m${E}[2m | ${E}[22m${E}[31m1 failed${E}[39m${E}[2m)${E}[22m`,
      fileLine('tests/console/c.test.tsx', '3 tests | 3 skipped'),
      ...WORKER_DIED,
    ];
    expect(unreported(lines, files)).toEqual(['']);
  });

  it('adds nothing when no worker died', () => {
    expect(unreported([fileLine('tests/server/a.test.ts', '4 tests'), 'FATAL ERROR: printed by a test on purpose'], files)).toEqual([]);
  });

  it("keeps Vitest's Failed Tests part, or else the output's end", () => {
    const output = ['before', `${E}[31m⎯⎯⎯⎯⎯⎯⎯${E}[39m${E}[1m${E}[41m Failed Tests 1 ${E}[49m${E}[22m${E}[31m⎯⎯⎯⎯⎯⎯⎯${E}[39m`, 'FAIL x', 'after'];
    expect(failures(output)).toEqual(output.slice(1));
    const long = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    expect(failures(long)).toEqual(long.slice(20));
  });

  it("lists the project's test files as Vitest names them", () => {
    const e2e = testFilesIn('tests/e2e');
    expect(e2e).toContain('tests/e2e/search.test.ts');
    expect(e2e.every((file) => /^tests\/e2e\/.+\.test\.ts$/.test(file))).toBe(true);
    expect(testFilesIn('tests/console')).toContain('tests/console/dashboard/dashboard.test.tsx');
  });
});
