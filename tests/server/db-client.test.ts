import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/src/db/client';
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
});
