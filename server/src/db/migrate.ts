import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client';

export const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

// Any constant works; it keeps several instances starting at once from migrating twice.
const MIGRATION_LOCK = 72_406_001;

/**
 * Tables a migration names in a `-- vacuum after: t1 t2` line. A migration that rebuilds a table
 * read by index-only scans leaves its visibility map unset, and PGlite has no autovacuum to set it.
 */
const tablesToVacuum = (body: string) =>
  [...body.matchAll(/^-- vacuum after:(.*)$/gm)].flatMap((match) => match[1]!.trim().split(/\s+/)).filter((table) => /^[a-z_][a-z0-9_]*$/.test(table));

/** Applies server/migrations/*.sql in name order, each once and in its own transaction. */
export async function runMigrations(database: Database, through?: string): Promise<string[]> {
  const files = fs
    .readdirSync(migrationsDir)
    .filter((name) => name.endsWith('.sql') && (through === undefined || name <= through))
    .sort();
  const applied: string[] = [];
  const vacuum = new Set<string>();
  const apply = async (run: (sqlText: string) => Promise<unknown>, rows: (sqlText: string) => Promise<{ name: string }[]>) => {
    await run('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await rows('SELECT name FROM schema_migrations')).map((row) => row.name));
    for (const name of files) {
      if (done.has(name)) continue;
      const body = fs.readFileSync(path.join(migrationsDir, name), 'utf8');
      const quoted = name.replace(/'/g, "''");
      await run(`BEGIN;\n${body}\n;INSERT INTO schema_migrations (name) VALUES ('${quoted}');\nCOMMIT;`).catch(async (error) => {
        await run('ROLLBACK').catch(() => undefined);
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`);
      });
      applied.push(name);
      for (const table of tablesToVacuum(body)) vacuum.add(table);
    }
    // VACUUM cannot run inside a transaction: after every migration has committed.
    for (const table of vacuum) await run(`VACUUM (ANALYZE) ${table}`);
  };

  if (database.pool) {
    const client = await database.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await apply(
        (sqlText) => client.query(sqlText),
        async (sqlText) => (await client.query(sqlText)).rows,
      );
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
  } else {
    await apply(
      (sqlText) => database.execScript(sqlText),
      (sqlText) => database.query<{ name: string }>(sqlText),
    );
  }
  return applied;
}
