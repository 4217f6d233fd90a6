import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type Database } from '../../server/src/db/client';
import { PREPARED_LIMIT } from '../../server/src/db/pglitePrepared';

/**
 * In PGlite's thread, parameterised statements run as prepared statements (one call into
 * PostgreSQL instead of six). What callers see must be what PGlite's query() gives, also when
 * tables change under a prepared statement, when there are more statements than are kept, and
 * inside failed transactions.
 */
describe('prepared statements in the PGlite thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('sees the new columns of a table changed under a prepared `SELECT *`, by a script or by a statement, in a transaction too', async () => {
    await database.execScript('CREATE TABLE shape (a int); INSERT INTO shape VALUES (1)');
    expect(await database.query('SELECT * FROM shape WHERE a = $1', [1])).toEqual([{ a: 1 }]);
    await database.execScript("ALTER TABLE shape ADD COLUMN b text DEFAULT 'x'");
    expect(await database.query('SELECT * FROM shape WHERE a = $1', [1])).toEqual([{ a: 1, b: 'x' }]);
    await database.transaction(async (tx) => {
      expect(await tx.query('SELECT * FROM shape WHERE a = $1', [1])).toEqual([{ a: 1, b: 'x' }]);
      await tx.query('ALTER TABLE shape ADD COLUMN c int DEFAULT 3');
      expect(await tx.query('SELECT * FROM shape WHERE a = $1', [1])).toEqual([{ a: 1, b: 'x', c: 3 }]);
    });
    expect(await database.query('SELECT * FROM shape WHERE a = $1', [1])).toEqual([{ a: 1, b: 'x', c: 3 }]);
  });

  it('runs more distinct statements than it keeps prepared, each with its own answer', async () => {
    const count = PREPARED_LIMIT + 20;
    const run = (i: number) => database.query<{ n: number; label: string }>(`SELECT $1::int + ${i} AS n, 'statement ${i}' AS label`, [1000]);
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => run(i)));
    expect(answers.map((rows) => rows[0])).toEqual(Array.from({ length: count }, (_, i) => ({ n: 1000 + i, label: `statement ${i}` })));
    // The first ones were closed to make room; they prepare again.
    expect(await run(0)).toEqual([{ n: 1000, label: 'statement 0' }]);
    expect(await run(count - 1)).toEqual([{ n: 1000 + count - 1, label: `statement ${count - 1}` }]);
  });

  it('rolls back a failed transaction driven by statements (BEGIN … ROLLBACK as queries), with statements waiting to be closed', async () => {
    await database.execScript('CREATE TABLE rolled (n int)');
    await database.query('SELECT count(*) FROM rolled WHERE n > $1', [0]);
    await database.execScript('SELECT 1'); // prepared statements are now waiting to be closed
    await database.query('BEGIN');
    await database.query('INSERT INTO rolled VALUES ($1)', [1]);
    await expect(database.query('SELECT 1 / $1::int', [0])).rejects.toMatchObject({ code: '22012' });
    await expect(database.query('SELECT n FROM rolled WHERE n = $1', [1])).rejects.toMatchObject({ code: '25P02' });
    await database.query('ROLLBACK');
    expect(await database.query('SELECT count(*)::int AS n FROM rolled')).toEqual([{ n: 0 }]);
  });

  it('names the failed statement on its error, as PGlite does', async () => {
    const sql = 'SELECT * FROM no_such_table WHERE id = $1';
    await expect(database.query(sql, [1])).rejects.toMatchObject({ code: '42P01', query: sql });
    await expect(database.query('SELEC $1', [1])).rejects.toMatchObject({ code: '42601', query: 'SELEC $1' });
    await expect(database.query('SELECT $1::int AS n', [1, 2])).rejects.toMatchObject({ code: '08P01' });
    expect(await database.query('SELECT $1::int AS n', [7])).toEqual([{ n: 7 }]);
  });

  it("makes the same rows on the server's thread as PGlite's own query(), for every kind of column", async () => {
    const own = await PGlite.create();
    try {
      const setup = `CREATE TYPE mood AS ENUM ('calm', 'busy');
        CREATE TABLE kinds (id int PRIMARY KEY, big bigint, price numeric(8,2), ratio float8, flag bool, name varchar(20), born date,
          seen timestamp, stamped timestamptz, span interval, doc json, docb jsonb, raw bytea, uid uuid, ints int4[], texts text[],
          docs jsonb[], feeling mood, feelings mood[]);
        INSERT INTO kinds VALUES (1, 9007199254740993, 12.5, 0.25, true, 'Zoë «x»', '2024-02-29'::date, '2026-11-28 08:00:01.5',
          '2026-11-28 08:00:01.5+02', '1 day 02:03:04', '{"a": [1, "b"]}', '{"k": null}', '\\x00ff10', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
          '{1,NULL,3}', '{"a,b","c\\"d",NULL}', ARRAY['{"x":1}'::jsonb], 'busy', '{calm,busy}'),
          (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`;
      await database.execScript(setup);
      await own.exec(setup);
      const statements: Array<[string, unknown[]]> = [
        ['SELECT * FROM kinds WHERE id = $1', [1]],
        ['SELECT * FROM kinds WHERE id = $1', [2]],
        ['SELECT id, ints, texts FROM kinds WHERE id > $1 ORDER BY id', [0]],
        ['SELECT count(*) AS n, sum(price) AS total, array_agg(id ORDER BY id) AS ids FROM kinds WHERE id >= $1', [1]],
        ['UPDATE kinds SET flag = NOT flag WHERE id = $1 RETURNING id, flag', [1]],
        ['DELETE FROM kinds WHERE id = $1', [99]],
      ];
      for (const [sql, params] of statements) {
        const expected = await own.query(sql, params);
        const [row] = await database.query(sql, params);
        expect(row).toEqual(expected.rows[0]);
      }
    } finally {
      await own.close();
    }
  });
});
