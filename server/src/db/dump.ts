import type { Database } from './client';

/**
 * A logical dump: every table's rows as JSON lines, read in one snapshot. The same file restores
 * into PGlite or PostgreSQL (so it also moves a studio from the embedded database to a server).
 */
export const DUMP_FORMAT = 'studio-console-dump';
const BATCH = 2000;

interface TableInfo {
  name: string;
  columns: { name: string; type: string }[];
  primaryKey: string[];
}

export type DumpLine =
  | { format: typeof DUMP_FORMAT; version: 1; created_at: string; migrations: string[] }
  | { table: string; columns: string[] }
  | { rows: unknown[][] }
  | { end: true; tables: Record<string, number> };

/**
 * Tables whose comment starts with 'derived:' hold only what triggers compute from other tables (the
 * dashboard aggregates): they are not dumped, and restoring the tables they derive from rebuilds them.
 */
const DERIVED = `coalesce(obj_description(c.oid, 'pg_class'), '') LIKE 'derived:%'`;

async function tables(run: Database['query']): Promise<TableInfo[]> {
  const names = await run<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'schema_migrations' AND NOT ${DERIVED}`,
  );
  const deps = await run<{ child: string; parent: string }>(
    `SELECT cl.relname AS child, pl.relname AS parent FROM pg_constraint k
     JOIN pg_class cl ON cl.oid = k.conrelid JOIN pg_class pl ON pl.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = cl.relnamespace
     WHERE k.contype = 'f' AND n.nspname = 'public' AND cl.relname <> pl.relname`,
  );
  // Parents before children, so foreign keys hold while restoring.
  const ordered: string[] = [];
  const pending = new Set(names.map((n) => n.name));
  while (pending.size > 0) {
    const ready = [...pending].filter((name) => !deps.some((d) => d.child === name && pending.has(d.parent)));
    if (ready.length === 0) throw new Error(`circular foreign keys among ${[...pending].join(', ')}`);
    for (const name of ready.sort()) {
      ordered.push(name);
      pending.delete(name);
    }
  }
  const result: TableInfo[] = [];
  for (const name of ordered) {
    const columns = await run<{ name: string; type: string }>(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
       WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [name],
    );
    const primaryKey = await run<{ name: string }>(
      `SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
       WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
      [name],
    );
    result.push({ name, columns, primaryKey: primaryKey.map((k) => k.name) });
  }
  return result;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Streams the dump line by line; `run` must read from one snapshot (see backupDatabase). */
export async function* dumpLines(run: Database['query'], now: Date): AsyncGenerator<DumpLine> {
  const migrations = (await run<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name);
  yield { format: DUMP_FORMAT, version: 1, created_at: now.toISOString(), migrations };
  const counts: Record<string, number> = {};
  for (const table of await tables(run)) {
    const columns = table.columns.map((c) => c.name);
    yield { table: table.name, columns };
    const select = columns.map((c) => (table.columns.find((x) => x.name === c)!.type === 'jsonb' ? `${ident(c)}::text` : ident(c))).join(', ');
    const order = (table.primaryKey.length ? table.primaryKey : columns).map(ident).join(', ');
    let after: unknown[] | undefined;
    counts[table.name] = 0;
    for (;;) {
      const where = after && table.primaryKey.length ? `WHERE (${order}) > (${after.map((_, i) => `$${i + 1}`).join(', ')})` : '';
      const offset = !table.primaryKey.length && after ? `OFFSET ${counts[table.name]}` : '';
      const rows = await run<Record<string, unknown>>(
        `SELECT ${select} FROM ${ident(table.name)} ${where} ORDER BY ${order} LIMIT ${BATCH} ${offset}`,
        after && table.primaryKey.length ? after : [],
      );
      if (rows.length === 0) break;
      yield { rows: rows.map((row) => columns.map((c) => (row[c] instanceof Date ? (row[c] as Date).toISOString() : row[c]))) };
      counts[table.name] += rows.length;
      const last = rows[rows.length - 1]!;
      after = table.primaryKey.map((k) => (last[k] instanceof Date ? (last[k] as Date).toISOString() : last[k]));
      if (rows.length < BATCH) break;
    }
  }
  yield { end: true, tables: counts };
}

/** Reads a consistent snapshot: one REPEATABLE READ transaction on PostgreSQL; PGlite has one connection. */
export async function withSnapshot<T>(database: Database, work: (run: Database['query']) => Promise<T>): Promise<T> {
  if (!database.pool) return work(database.query.bind(database));
  return database.transaction((tx) => work(tx.query.bind(tx)), { snapshot: true });
}

/** Loads a dump into a database that has the same migrations and no data yet, in one transaction: all or nothing. */
export async function restoreLines(database: Database, lines: AsyncIterable<DumpLine>): Promise<Record<string, number>> {
  return database.transaction((tx) => restoreOn(tx.query.bind(tx), lines));
}

async function restoreOn(run: Database['query'], lines: AsyncIterable<DumpLine>): Promise<Record<string, number>> {
  let header: Extract<DumpLine, { format: string }> | undefined;
  let current: { name: string; columns: string[]; types: Map<string, string>; derived: boolean } | undefined;
  const counts: Record<string, number> = {};
  let ended = false;
  for await (const line of lines) {
    if ('format' in line) {
      if (line.format !== DUMP_FORMAT || line.version !== 1) throw new Error('not a Studio Console dump (or an unknown version)');
      header = line;
      const have = new Set((await run<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
      const missing = line.migrations.filter((m) => !have.has(m));
      if (missing.length) throw new Error(`the dump needs migrations this server does not have: ${missing.join(', ')} (upgrade first)`);
      const [{ busy }] = await run<{ busy: boolean }>('SELECT EXISTS (SELECT 1 FROM clients) OR EXISTS (SELECT 1 FROM staff_users) AS busy');
      if (busy) throw new Error('the target database already holds data; restore into an empty DATA_DIR or database');
      // Rows seeded by migrations (access levels, message types …) come back from the dump.
      const seeded = await run<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'schema_migrations'`,
      );
      await run(`TRUNCATE ${seeded.map((t) => ident(t.name)).join(', ')} CASCADE`);
    } else if (!header) {
      throw new Error('not a Studio Console dump: the first line is not its header');
    } else if ('table' in line) {
      const types = new Map(
        (
          await run<{ name: string; type: string }>(
            `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
           WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped`,
            [line.table],
          )
        ).map((c) => [c.name, c.type]),
      );
      const [{ derived }] = await run<{ derived: boolean }>(`SELECT ${DERIVED} AS derived FROM pg_class c WHERE c.oid = $1::regclass`, [line.table]);
      current = { name: line.table, columns: line.columns, types, derived };
      counts[line.table] = 0;
    } else if ('rows' in line) {
      if (!current) throw new Error('rows before their table');
      // A dump from before a table became derived: its rows are rebuilt by the triggers, not copied.
      if (current.derived) {
        counts[current.name] += line.rows.length;
        continue;
      }
      const perRow = current.columns.length;
      const chunk = Math.max(1, Math.floor(30_000 / perRow));
      for (let start = 0; start < line.rows.length; start += chunk) {
        const rows = line.rows.slice(start, start + chunk);
        const values = rows
          .map((_, r) => `(${current!.columns.map((c, i) => `$${r * perRow + i + 1}::${current!.types.get(c) ?? 'text'}`).join(', ')})`)
          .join(', ');
        await run(`INSERT INTO ${ident(current.name)} (${current.columns.map(ident).join(', ')}) VALUES ${values}`, rows.flat());
      }
      counts[current.name] += line.rows.length;
    } else if ('end' in line) {
      for (const [table, expected] of Object.entries(line.tables)) {
        if ((counts[table] ?? 0) !== expected) throw new Error(`the dump is damaged: ${table} has ${counts[table]} rows, expected ${expected}`);
      }
      ended = true;
    }
  }
  if (!ended) throw new Error('the dump is incomplete (no end marker): nothing was restored');
  // Sequences continue after the restored ids.
  const serials = await run<{ table: string; column: string; seq: string }>(
    // A dropped column (a migration's DROP COLUMN) has no name pg_get_serial_sequence can look up:
    // OFFSET 0 keeps the filter below from being evaluated after the function.
    `SELECT "table", "column", seq FROM (
       SELECT cols.*, pg_get_serial_sequence(quote_ident(cols.table), cols.column) AS seq FROM (
         SELECT c.relname AS table, a.attname AS column
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
         WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped OFFSET 0) cols
     ) found WHERE seq IS NOT NULL`,
  );
  for (const s of serials) {
    await run(`SELECT setval($1, COALESCE((SELECT max(${ident(s.column)}) FROM ${ident(s.table)}), 0) + 1, false)`, [s.seq]);
  }
  return counts;
}
