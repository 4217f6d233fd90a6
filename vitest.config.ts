import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { contractAlias } from './vite.config.ts';

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: { alias: contractAlias },
        test: {
          name: 'console',
          environment: 'jsdom',
          include: ['tests/console/**/*.test.{ts,tsx}'],
          exclude: ['tests/console/**/*.isolated.test.{ts,tsx}'],
          setupFiles: ['tests/support/console-setup.ts'],
          // A timeout is a hang detector, never a speed check: the longest tests (a whole grant, then its end)
          // take ~12 s on a quiet machine, and beside the browser tests on two cores a worker may get a
          // fifth of a core (a 13 s test took 61 s in such a run).
          testTimeout: 180_000,
          // jsdom rendering is CPU-bound: one worker per core (Vitest's default leaves one core idle).
          maxWorkers: 2,
          // The files share each worker's imported modules (React, MUI, react-admin, the console) and
          // its window instead of importing them again per file: a third of the project's CPU time.
          // Each test still renders its own app, msw handlers and history are reset after each test
          // and the window's size after each file (tests/support/console-setup.ts).
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        plugins: [react()],
        resolve: { alias: contractAlias },
        test: {
          // A file that replaces modules (vi.mock) gets its own module registry: in the shared one an
          // earlier file may already have loaded the real module. Named '*.isolated.test.tsx'.
          name: 'console-isolated',
          environment: 'jsdom',
          include: ['tests/console/**/*.isolated.test.{ts,tsx}'],
          setupFiles: ['tests/support/console-setup.ts'],
          testTimeout: 180_000,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias: contractAlias },
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          globalSetup: ['tests/server/global-setup.ts'],
          // A hang detector: the tests that build 10,000 rows on PGlite take tens of seconds alone and over 60 s
          // beside the browser tests on two cores.
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // Two cores: PGlite instances are CPU-bound, more workers only thrash.
          maxWorkers: 2,
          // A worker opens and closes hundreds of PGlite threads, and V8 (Node 24's 13.6) once aborted one
          // ("Check failed: jit_page_->allocations_.erase(addr) == 1") while tiering up a wasm-to-JS import
          // wrapper: Runtime_TierUpWasmToJSWrapper freeing the process-wide wrapper cache's code. Wrappers
          // that never tier up never take that path; PGlite's speed did not change measurably.
          execArgv: ['--wasm-wrapper-tiering-budget=2147483647'],
          // No test file mocks a module or keeps state in one, and each builds its own app: sharing the
          // imported server modules between files saves importing them ~100 times.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        resolve: { alias: contractAlias },
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/support/e2e-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // A page on a busy machine (the other lane's tests beside it) may take seconds to show what a
          // quiet one shows at once: expect.poll's own second made tests fail by the machine's load alone.
          expect: { poll: { timeout: 30_000, interval: 100 } },
          // Each file starts its own server on its own copy of the seeded data and its own Chromium, so
          // files share nothing; two at a time keep both cores busy while one waits on the other.
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
