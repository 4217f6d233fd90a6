import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { CHROMIUM } from '../support/e2e';

/** Browser tests run against the real built console; build it once per run. */
export default function setup() {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Browser tests need Chromium at ${CHROMIUM}: apt-get install -y chromium (CI installs it).`);
  }
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
