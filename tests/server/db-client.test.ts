import { describe, expect, it } from 'vitest';
import { like } from 'drizzle-orm';
import { recordAudit } from '../../server/src/audit/record';
import { openDatabase } from '../../server/src/db/client';
import { appSettings } from '../../server/src/db/schema';
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

  it('hold drizzle, raw SQL, scripts and the audit entry in the one transaction', async () => {
    const database = await open();
    const entry = { staff: null, action: 'video.update' as const, target_type: 'video', target_id: 'tx-test' };
    const audited = async () => (await database.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE target_id = 'tx-test'"))[0]!.n;
    try {
      await expect(
        database.transaction(async (tx) => {
          await tx.db.insert(appSettings).values({ key: 'tx.drizzle', value: '1' });
          await tx.query("INSERT INTO app_settings (key, value) VALUES ('tx.raw', '1')");
          await tx.execScript("INSERT INTO app_settings (key, value) VALUES ('tx.script', '1'); UPDATE app_settings SET value = '2' WHERE key = 'tx.raw';");
          await recordAudit(tx, entry);
          // Everything is visible inside, whichever way it was written.
          expect((await tx.db.select().from(appSettings).where(like(appSettings.key, 'tx.%'))).map((row) => row.key).sort()).toEqual([
            'tx.drizzle',
            'tx.raw',
            'tx.script',
          ]);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await database.query("SELECT key FROM app_settings WHERE key LIKE 'tx.%'")).toEqual([]);
      expect(await audited()).toBe(0);

      await database.transaction(async (tx) => {
        await tx.db.insert(appSettings).values({ key: 'tx.drizzle', value: '1' });
        await recordAudit(tx, entry);
      });
      expect(await database.query("SELECT key FROM app_settings WHERE key LIKE 'tx.%'")).toEqual([{ key: 'tx.drizzle' }]);
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
