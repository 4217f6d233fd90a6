/**
 * A broadcast through the FCM sandbox in one process, for profiling the sending path
 * (`node --cpu-prof --import tsx bench/broadcast-inprocess.ts [pglite|postgres://…] [recipients]`):
 * N clients with one device each, a broadcast to all of them, the job run until it is sent.
 * Prints recipients a second, the counts and os.loadavg() beside them. A PostgreSQL URL's
 * database is emptied first (its schema dropped): give it a scratch database.
 */
import { loadavg } from 'node:os';
import type { Broadcast, BroadcastCreated } from '@contract/broadcasts';
import { openDatabase, type Database } from '../server/src/db/client';
import { BROADCAST_SEND } from '../server/src/broadcasts/store';
import { createTestApp, signIn } from '../tests/support/server';

const target = process.argv[2] ?? 'pglite';
const n = Number(process.argv[3] ?? 20_000);

/** Time and count per statement (its first words) and transactions: where the sending waits. */
function profileStatements(database: Database) {
  const stats = new Map<string, { n: number; ms: number }>();
  let transactions = 0;
  const timed = (query: Database['query']): Database['query'] =>
    (async (sqlText: string, params?: unknown[], options?: never) => {
      const key = sqlText.replace(/\s+/g, ' ').trim().slice(0, 90);
      const at = performance.now();
      try {
        return await query(sqlText, params, options);
      } finally {
        const entry = stats.get(key) ?? { n: 0, ms: 0 };
        entry.n++;
        entry.ms += performance.now() - at;
        stats.set(key, entry);
      }
    }) as Database['query'];
  const query = database.query.bind(database);
  const transaction = database.transaction.bind(database);
  database.query = timed(query);
  database.transaction = ((work, options) => {
    transactions++;
    return transaction((tx) => work({ ...tx, query: timed(tx.query.bind(tx)), execScript: tx.execScript }), options);
  }) as Database['transaction'];
  return {
    print() {
      console.log(`transactions: ${transactions}`);
      for (const [key, entry] of [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25))
        console.log(`${String(entry.n).padStart(7)} ${entry.ms.toFixed(0).padStart(8)} ms  ${key}`);
    },
  };
}

async function main() {
  if (target !== 'pglite') {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: target });
    await admin.connect();
    await admin.query('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public');
    await admin.end();
  }
  const database = await openDatabase(target === 'pglite' ? { dataDir: 'memory://' } : { url: target, dataDir: 'unused' });
  await database.query(
    `INSERT INTO clients (first_name, last_name, email_address) SELECT 'F' || g, 'L' || g, 'c' || g || '@bench.test' FROM generate_series(1, $1::int) g`,
    [n],
  );
  await database.query(
    `INSERT INTO debug_records (client_id, email, platform, firebase_token_new, used_for_push, created_at)
     SELECT id, email_address, 'ios', 'tok-' || id, true, now() FROM clients`,
  );
  await database.query('ANALYZE');
  // What the message outcomes' triggers on pushes cost the sending: measured without them (not a mode to run in).
  if (process.env.WITHOUT_OUTCOME_TRIGGERS)
    await database.execScript(
      'ALTER TABLE pushes DISABLE TRIGGER message_outcomes_pushes_insert; ALTER TABLE pushes DISABLE TRIGGER message_outcomes_pushes_update',
    );
  const statements = process.env.PROFILE_SQL ? profileStatements(database) : null;
  const app = await createTestApp(database, { env: {} });
  const cookie = await signIn(app);
  const call = async <T>(method: string, url: string, payload?: object) => {
    const response = await app.inject({ method: method as 'GET', url, headers: { cookie }, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json() as T;
  };
  await call('PUT', '/api/admin/v1/automated-messages/1/settings', { global: { quiet_start: '00:00', quiet_end: '00:00', daily_cap: 20 } });
  const before = loadavg();
  const started = performance.now();
  const created = await call<BroadcastCreated>('POST', '/api/admin/v1/broadcasts', { filter: {}, title: 'Bench', body: 'Hi {first_name}' });
  const answeredMs = performance.now() - started;
  let broadcast: Broadcast;
  for (;;) {
    await app.jobs.drain([BROADCAST_SEND]);
    broadcast = await call<Broadcast>('GET', `/api/admin/v1/broadcasts/${created.id}`);
    if (broadcast.status === 'sent') break;
  }
  const seconds = (performance.now() - started) / 1000;
  const { sent, failed, skipped, pending, retrying } = broadcast.counts;
  console.log(
    JSON.stringify({
      database: target === 'pglite' ? 'pglite' : 'postgres',
      recipients: broadcast.recipients,
      seconds: Math.round(seconds * 10) / 10,
      per_second: Math.round(broadcast.recipients / seconds),
      post_ms: Math.round(answeredMs),
      counts: { sent, failed, skipped, pending, retrying },
      loadavg_before: before.map((x) => x.toFixed(2)),
      loadavg_after: loadavg().map((x) => x.toFixed(2)),
    }),
  );
  if (statements) statements.print();
  await app.close();
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
