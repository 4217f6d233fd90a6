import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { CHROMIUM } from '../support/e2e';
import { PORTS_DIR, startServer, TEMPLATE_ENV } from '../support/serverProcess';

/**
 * Browser tests run against the real built console; build it once per run. Seed the demo data once,
 * too: each file's server starts on a copy (tests/support/serverProcess.ts), and the test of a first
 * start on an empty directory asks for a fresh one.
 */
export default async function setup() {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Browser tests need Chromium at ${CHROMIUM}: apt-get install -y chromium (CI installs it).`);
  }
  fs.rmSync(PORTS_DIR, { recursive: true, force: true });
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  const seeded = await startServer({ fresh: true });
  const exitCode = await seeded.stop();
  if (exitCode !== 0) throw new Error(`The seeding server did not stop cleanly (${exitCode}):\n${seeded.output()}`);
  process.env[TEMPLATE_ENV] = seeded.dataDir;
  return () => {
    fs.rmSync(seeded.dataDir, { recursive: true, force: true });
    fs.rmSync(PORTS_DIR, { recursive: true, force: true });
  };
}
