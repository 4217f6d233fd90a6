import pg from 'pg';
import { cpuNanoseconds } from '../clients-latency';

/** Below this share of one core over a window, the server counts as idle. */
const IDLE_CPU_SHARE = 0.05;
const WINDOW_MS = 2000;
/** Windows in a row that must be idle: one quiet window can fall between two jobs' statements. */
const QUIET_WINDOWS = 2;

export interface Settled {
  /** Seconds from the call until the server and its database were idle (or the limit). */
  seconds: number;
  /** False when the limit came first: the figures were then measured beside the server's own work. */
  idle: boolean;
}

/** Statements running in the data set's PostgreSQL database for anyone but this probe. */
async function activeStatements(databaseUrl: string): Promise<number> {
  const probe = new pg.Client({ connectionString: databaseUrl });
  await probe.connect();
  try {
    const { rows } = await probe.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
    );
    return Number(rows[0]!.n);
  } finally {
    await probe.end();
  }
}

/**
 * Waits until the server's start-up work (the jobs it runs at start, such as the video figures
 * over 10,000,000 views, and PostgreSQL's statements for them) is over, so the groups measure
 * what staff meet on a running server rather than in the minute after a restart. PGlite runs in
 * the server's process, so its CPU time covers the database too; PostgreSQL's backends are asked.
 */
export async function waitForServerToSettle(serverPid: number, databaseUrl: string | undefined, limitMs: number): Promise<Settled> {
  const started = performance.now();
  let quiet = 0;
  while (performance.now() - started < limitMs) {
    const before = cpuNanoseconds(serverPid);
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const share = (cpuNanoseconds(serverPid) - before) / 1e6 / WINDOW_MS;
    const busyDatabase = databaseUrl ? (await activeStatements(databaseUrl)) > 0 : false;
    quiet = share < IDLE_CPU_SHARE && !busyDatabase ? quiet + 1 : 0;
    if (quiet >= QUIET_WINDOWS) return { seconds: Math.round((performance.now() - started) / 100) / 10, idle: true };
  }
  return { seconds: Math.round((performance.now() - started) / 100) / 10, idle: false };
}
