import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordAudit } from '../../server/src/audit/record';
import { openDatabase } from '../../server/src/db/client';
import { RowShapeError } from '../../server/src/db/rows';
import { testDatabases } from '../support/databases';

describe('opening the database', () => {
  it('refuses an unreachable PostgreSQL at boot instead of on the first request', async () => {
    await expect(openDatabase({ url: 'postgres://postgres@127.0.0.1:1/none', dataDir: 'unused', poolSize: 1 })).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});

const postgres = testDatabases().filter((database) => database.name === 'postgres');

describe.each(postgres)('a PostgreSQL connection dropped by the server ($name)', ({ open }) => {
  it('does not crash the process, and the next query gets a fresh connection', async () => {
    const database = await open();
    try {
      const [{ pid }] = (await database.query('SELECT pg_backend_pid() AS pid')) as Array<{ pid: number }>;
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.message);
      process.on('warning', onWarning);
      const killer = await open();
      try {
        await killer.query('SELECT pg_terminate_backend($1)', [pid]).catch(() => undefined);
      } finally {
        await killer.close();
      }
      await expect.poll(() => warnings.join('\n'), { timeout: 5_000 }).toMatch(/dropped an idle connection/);
      process.off('warning', onWarning);
      const rows = (await database.query('SELECT 41 + 1 AS answer')) as Array<{ answer: number }>;
      expect(rows[0]!.answer).toBe(42);
    } finally {
      await database.close();
    }
  });
});

describe.each(postgres)('PostgreSQL sessions the server opens ($name)', () => {
  // The search's statements are estimated far above what they cost (LIMIT over correlated filters):
  // PostgreSQL compiled them with JIT, ~30 ms for a statement that runs in 3 (e-mail fragments).
  it('run without JIT, on every connection of the pool, keeping the options the URL gives', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('options', '-c statement_timeout=4321');
    const database = await openDatabase({ url: url.toString(), dataDir: 'unused', poolSize: 3 });
    try {
      const settings = await Promise.all(
        [1, 2, 3].map(() =>
          database.query<{ jit: string; timeout: string }>(
            "SELECT current_setting('jit') AS jit, current_setting('statement_timeout') AS timeout, pg_sleep(0.05)::text",
          ),
        ),
      );
      expect(settings.map(([row]) => [row!.jit, row!.timeout])).toEqual([
        ['off', '4321ms'],
        ['off', '4321ms'],
        ['off', '4321ms'],
      ]);
    } finally {
      await database.close();
    }
  });
});

describe.each(testDatabases())('rows checked against their schema on $name', ({ open }) => {
  it('types each row by its schema, and refuses a row that does not fit, naming the column and the statement', async () => {
    const database = await open();
    try {
      const Row = z.object({ n: z.number(), at: z.date(), label: z.string().nullable() });
      const rows = await database.rows(Row, "SELECT 1::int AS n, timestamptz '2026-01-02T03:04:05Z' AS at, NULL::text AS label");
      expect(rows).toEqual([{ n: 1, at: new Date('2026-01-02T03:04:05Z'), label: null }]);
      // A count is a number on both drivers (node-postgres' int8 parser, PGlite's own).
      expect(await database.rows(z.object({ n: z.number() }), 'SELECT count(*) AS n FROM generate_series(1, 3)')).toEqual([{ n: 3 }]);
      // A column renamed in the SQL, or answered with another type, fails here instead of travelling on.
      const renamed = await database.rows(Row, "SELECT 1::int AS count, now() AS at, 'x' AS label").catch((error: unknown) => error);
      expect(renamed).toBeInstanceOf(RowShapeError);
      expect((renamed as Error).message).toMatch(/"SELECT 1::int AS count.*" does not fit its schema at n:/);
      const asText = await database.rows(Row, "SELECT '1' AS n, now() AS at, NULL AS label").catch((error: unknown) => error);
      expect((asText as Error).message).toMatch(/at n: .*number/i);
      // In a transaction too, which it then ends.
      const inTransaction = await database
        .transaction(async (tx) => {
          await tx.execute("INSERT INTO app_settings (key, value) VALUES ('rows.check', '1')");
          return tx.rows(z.object({ key: z.number() }), "SELECT key FROM app_settings WHERE key = 'rows.check'");
        })
        .catch((error: unknown) => error);
      expect(inTransaction).toBeInstanceOf(RowShapeError);
      expect(await database.query("SELECT key FROM app_settings WHERE key = 'rows.check'")).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe.each(testDatabases())('raw-SQL transactions on $name', ({ open }) => {
  it('commit every query together, or none when the work throws', async () => {
    const database = await open();
    try {
      await database.query("INSERT INTO app_settings (key, value) VALUES ('tx.kept', '1')");
      await expect(
        database.transaction(async (tx) => {
          await tx.query("UPDATE app_settings SET value = '2' WHERE key = 'tx.kept'");
          await tx.query("INSERT INTO app_settings (key, value) VALUES ('tx.new', '1')");
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await database.query("SELECT key, value FROM app_settings WHERE key LIKE 'tx.%' ORDER BY key")).toEqual([{ key: 'tx.kept', value: '1' }]);
      await database.transaction(async (tx) => {
        await tx.query("UPDATE app_settings SET value = '3' WHERE key = 'tx.kept'");
        await tx.query("INSERT INTO app_settings (key, value) VALUES ('tx.new', '1')");
      });
      expect(await database.query("SELECT key, value FROM app_settings WHERE key LIKE 'tx.%' ORDER BY key")).toEqual([
        { key: 'tx.kept', value: '3' },
        { key: 'tx.new', value: '1' },
      ]);
    } finally {
      await database.close();
    }
  });

  it('hold checked reads, statements, scripts and the audit entry in the one transaction', async () => {
    const database = await open();
    const entry = { staff: null, action: 'video.update' as const, target_type: 'video', target_id: 'tx-test' };
    const audited = async () => (await database.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE target_id = 'tx-test'"))[0]!.n;
    try {
      await expect(
        database.transaction(async (tx) => {
          await tx.execute('INSERT INTO app_settings (key, value) VALUES ($1, $2)', ['tx.execute', '1']);
          await tx.query("INSERT INTO app_settings (key, value) VALUES ('tx.raw', '1')");
          await tx.execScript("INSERT INTO app_settings (key, value) VALUES ('tx.script', '1'); UPDATE app_settings SET value = '2' WHERE key = 'tx.raw';");
          await recordAudit(tx, entry);
          // Everything is visible inside, whichever way it was written.
          expect(await tx.rows(z.object({ key: z.string() }), "SELECT key FROM app_settings WHERE key LIKE 'tx.%' ORDER BY key")).toEqual([
            { key: 'tx.execute' },
            { key: 'tx.raw' },
            { key: 'tx.script' },
          ]);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await database.query("SELECT key FROM app_settings WHERE key LIKE 'tx.%'")).toEqual([]);
      expect(await audited()).toBe(0);

      await database.transaction(async (tx) => {
        await tx.execute('INSERT INTO app_settings (key, value) VALUES ($1, $2)', ['tx.execute', '1']);
        await recordAudit(tx, entry);
      });
      expect(await database.query("SELECT key FROM app_settings WHERE key LIKE 'tx.%'")).toEqual([{ key: 'tx.execute' }]);
      expect(await audited()).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('read a snapshot that refuses writes', async () => {
    const database = await open();
    try {
      await expect(
        database.transaction(
          async (tx) => {
            expect(await tx.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
            await tx.query("INSERT INTO app_settings (key, value) VALUES ('tx.snapshot', '1')");
          },
          { snapshot: true },
        ),
      ).rejects.toThrow(/read-only transaction/);
      expect(await database.query("SELECT key FROM app_settings WHERE key = 'tx.snapshot'")).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
