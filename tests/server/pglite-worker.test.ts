import { PGlite, messages } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/src/db/client';
import { runMigrations } from '../../server/src/db/migrate';
import { z } from 'zod';

/**
 * PGlite runs in a worker thread of the server process: statements run there, HTTP work on the
 * server's thread. What callers see must not change: the same values, errors and transactions.
 */
describe('PGlite in its worker thread', () => {
  let database: Database;
  let inThread: PGlite;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    inThread = await PGlite.create({ extensions: { pg_trgm } });
    await runMigrations({
      kind: 'pglite',
      execScript: async (sql: string) => void (await inThread.exec(sql)),
      query: async (sql: string, params?: unknown[]) => (await inThread.query(sql, params)).rows,
    } as unknown as Database);
  });
  afterAll(async () => {
    await database?.close();
    await inThread?.close();
  });

  it('leaves the server thread free while a statement runs: a timer set meanwhile fires before the statement ends', async () => {
    const events: string[] = [];
    const statement = database.query('SELECT pg_sleep(0.3)').then(() => events.push('statement finished'));
    // Let the statement start (on the server's thread it would now hold the thread until it ends).
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        events.push('timer');
        resolve();
      }, 0),
    );
    await statement;
    expect(events).toEqual(['timer', 'statement finished']);
  });

  it('returns every type exactly as PGlite on the same thread does', async () => {
    const sql = `SELECT 1::int8 AS small_int8, 9007199254740993::int8 AS big_int8, 7::int4 AS int4, 1.5::numeric AS numeric, 2.5::float8 AS float8,
      '2026-11-22 12:34:56.789+01'::timestamptz AS timestamptz, '2026-11-22 12:34:56'::timestamp AS timestamp, '2026-11-22'::date AS date,
      '{"a":[1,"two",null],"b":{"c":true}}'::jsonb AS jsonb, '{"x":1}'::json AS json, '\\x00ff10'::bytea AS bytea, ARRAY[1,2,3] AS int_array,
      ARRAY['a','b'] AS text_array, true AS bool, NULL::text AS nothing, 'Ünïcødé ✓'::text AS text, interval '1 day 2 hours' AS interval,
      '11111111-2222-3333-4444-555555555555'::uuid AS uuid, $1::text AS param_text, $2::int8 AS param_int8, $3::timestamptz AS param_date, $4::jsonb AS param_json`;
    const params = ['x', 42, new Date('2026-01-02T03:04:05.678Z'), JSON.stringify({ k: ['v'] })];
    const expected = (await inThread.query(sql, params)).rows;
    const rows = await database.query(sql, params);
    expect(rows).toEqual(expected);
    expect(rows[0]!.timestamptz).toBeInstanceOf(Date);
    expect(typeof rows[0]!.big_int8).toBe('bigint');
    expect(rows[0]!.bytea).toBeInstanceOf(Uint8Array);
  });

  it('gives checked rows the types PGlite on the same thread gives', async () => {
    const insert =
      'INSERT INTO clients (first_name, last_name, email_address, created_at, updated_at, mb_unique_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at, mb_unique_id, last_name';
    const values = ['Ada', 'Lovelace', 'ada@example.test', new Date('2026-03-04T05:06:07.089Z'), new Date('2026-03-05T00:00:00Z'), 9_007_199_254_740_000];
    const written = await database.rows(z.object({ created_at: z.date(), mb_unique_id: z.number().nullable(), last_name: z.string() }), insert, values);
    expect(written).toEqual((await inThread.query(insert, values)).rows);
    expect(written).toEqual([{ created_at: new Date('2026-03-04T05:06:07.089Z'), mb_unique_id: 9_007_199_254_740_000, last_name: 'Lovelace' }]);
  });

  it("keeps PostgreSQL's error code, constraint and class", async () => {
    await database.execScript('CREATE TABLE worker_unique (k text PRIMARY KEY)');
    await database.query("INSERT INTO worker_unique VALUES ('a')");
    const duplicate = await database.query("INSERT INTO worker_unique VALUES ('a')").catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(messages.DatabaseError);
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'worker_unique_pkey', severity: 'ERROR', message: expect.stringContaining('duplicate key') });
    const badBytes = await database.query("SELECT convert_from('\\xff'::bytea, 'UTF8')").catch((error: unknown) => error);
    expect(badBytes).toMatchObject({ code: '22021' });
    const syntax = await database.execScript('SELEC 1').catch((error: unknown) => error);
    expect(syntax).toMatchObject({ code: '42601', position: expect.any(String) });
    // The thread is still good after errors.
    expect(await database.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('keeps statements in the order they were sent, transactions included', async () => {
    const order: string[] = [];
    await database.execScript('CREATE TABLE turn_log (n int)');
    await Promise.all([
      database.query('INSERT INTO turn_log VALUES (1)').then(() => order.push('first')),
      database
        .transaction(async (tx) => {
          await tx.query('INSERT INTO turn_log VALUES (2)');
          // Nothing sent meanwhile runs inside this transaction.
          await new Promise((resolve) => setImmediate(resolve));
          await tx.query('INSERT INTO turn_log VALUES (3)');
        })
        .then(() => order.push('transaction')),
      database.query('SELECT array_agg(n ORDER BY n) AS ns FROM turn_log').then((rows) => order.push(`saw ${JSON.stringify(rows[0]!.ns)}`)),
    ]);
    expect(order).toEqual(['first', 'transaction', 'saw [1,2,3]']);
  });

  it('fails the commit of a transaction whose statement failed, as PGlite does, and stores none of it', async () => {
    await database.execScript('CREATE TABLE tx_abort (n int)');
    const commit = database
      .transaction(async (tx) => {
        await tx.query('INSERT INTO tx_abort VALUES (1)');
        await tx.query('SELECT 1 / 0').catch(() => undefined);
      })
      .catch((error: unknown) => error);
    expect(await commit).toMatchObject({ code: '25P02' });
    expect(await database.query('SELECT count(*)::int AS n FROM tx_abort')).toEqual([{ n: 0 }]);
  });
});
