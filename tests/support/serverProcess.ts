import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const E2E_STAFF = { email: 'e2e@studio.test', password: 'e2e-password-1' };

export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Where the browser tests' processes note the ports they took (tests/e2e/global-setup.ts empties it). */
export const PORTS_DIR = path.join(os.tmpdir(), 'studio-e2e-ports');

/**
 * A port no other server of this run has had, below the kernel's ephemeral range (32768 and up here).
 * A server stopped for a restart keeps its port while it is down: a port from `listen(0)`, or one
 * another test file found free at that moment, could otherwise go to someone else's server, and the
 * tab under test would find a server back that was never its own. Each port is
 * claimed with a file created exclusively, so the two Vitest workers never pick the same one.
 */
async function freePort(): Promise<number> {
  fs.mkdirSync(PORTS_DIR, { recursive: true });
  for (let port = 20_000 + Math.floor(Math.random() * 10_000), tries = 0; tries < 2_000; tries++, port = port === 31_999 ? 20_000 : port + 1) {
    try {
      fs.closeSync(fs.openSync(path.join(PORTS_DIR, String(port)), 'wx'));
    } catch {
      continue; // taken by another server of this run
    }
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port between 20000 and 31999');
}

/** Set by tests/e2e/global-setup.ts: a data directory the server seeded once, stopped cleanly. */
export const TEMPLATE_ENV = 'STUDIO_E2E_TEMPLATE_DATA_DIR';

/**
 * A new data directory. In the browser tests it is a copy of the one seeded at setup, so each file
 * does not seed 2,000 demo clients again; `fresh` (or custom seeding or database settings) starts
 * from an empty one, as `npm start` on a new machine does.
 */
function newDataDir(options: { fresh?: boolean; env?: Record<string, string> }): string {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'studio-e2e-')), 'data');
  const template = process.env[TEMPLATE_ENV];
  const customised = options.env && ('SEED_DEMO' in options.env || 'DATABASE_URL' in options.env || 'DATA_DIR' in options.env);
  if (template && fs.existsSync(template) && !options.fresh && !customised) fs.cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

/**
 * Starts the real server (`npm run serve`'s entry point) on its own port and data directory, with
 * the demo data, as `npm start` would after building. Pass the same dataDir (and port) again to restart on it.
 */
export async function startServer(options: { dataDir?: string; env?: Record<string, string>; fresh?: boolean; port?: number } = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? newDataDir(options);
  // The same port again: a restart under tabs that stay open on it.
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STAFF_EMAIL: E2E_STAFF.email,
      STAFF_PASSWORD: E2E_STAFF.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // A hang detector: a first start seeds the demo data, which took over 90 s beside the other lanes on two cores.
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    dataDir,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * An empty PostgreSQL database next to `adminUrl`'s for a server process of its own (the crash
 * tests): its URL, and `drop` to remove it afterwards.
 */
export async function scratchPostgres(adminUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
