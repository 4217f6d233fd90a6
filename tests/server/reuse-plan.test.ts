import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';

/**
 * `reusePlan` (server/src/db/client.ts): a statement whose plan does not depend on its values may be
 * planned once and the plan reused. It must answer exactly what the same statement answers without
 * it, and leave every other statement planned for its values.
 */
describe.each(testDatabases())('statements whose plan is reused, on $name', ({ name, open }) => {
  let database: Database;
  const lookup = 'SELECT id, label FROM reuse_probe WHERE id = $1';
  beforeAll(async () => {
    database = await open();
    await database.execScript(`CREATE TABLE reuse_probe (id int PRIMARY KEY, label text NOT NULL);
      INSERT INTO reuse_probe SELECT n, 'row ' || n FROM generate_series(1, 50) n`);
  });
  afterAll(async () => {
    await database?.close();
  });

  // pg_prepared_statements lists one session's statements: PGlite is one session; on PostgreSQL a
  // transaction holds one pooled connection.
  const onOneSession = <T>(work: (session: Queryable) => Promise<T>) => (name === 'pglite' ? work(database) : database.transaction(work));
  const plans = (session: Queryable, sql: string) =>
    session.query<{ generic_plans: number; custom_plans: number }>(
      'SELECT generic_plans::int AS generic_plans, custom_plans::int AS custom_plans FROM pg_prepared_statements WHERE statement = $1',
      [sql],
    );

  it('answers what the statement answers without it, for every key, missing keys and errors included', async () => {
    for (const id of [1, 7, 50, 51, -1]) {
      expect(await database.query(lookup, [id], { reusePlan: true })).toEqual(await database.query(lookup, [id]));
    }
    await expect(database.query(lookup, ['not a number'], { reusePlan: true })).rejects.toMatchObject({ code: '22P02' });
    expect(await database.query(lookup, [3], { reusePlan: true })).toEqual([{ id: 3, label: 'row 3' }]);
  });

  it('is planned generically after a few runs, while an unmarked statement is planned for its values every time', async () => {
    const marked = `${lookup} AND label IS NOT NULL`;
    const unmarked = `${lookup} AND label <> ''`;
    const counts = await onOneSession(async (session) => {
      for (let id = 1; id <= 10; id++) {
        await session.query(marked, [id], { reusePlan: true });
        await session.query(unmarked, [id]);
      }
      return { marked: await plans(session, marked), unmarked: await plans(session, unmarked) };
    });
    expect(counts.marked[0]?.generic_plans).toBeGreaterThan(0);
    // PostgreSQL does not keep an unnamed statement; PGlite keeps it and plans it for its values.
    expect(counts.unmarked.every((row) => row.generic_plans === 0)).toBe(true);
  });
});

describe("statements whose plan is reused, in PGlite's one session", () => {
  let database: Database;
  const lookup = 'SELECT id, label FROM reuse_probe WHERE id = $1';
  beforeAll(async () => {
    database = await testDatabases()[0]!.open();
    await database.execScript(`CREATE TABLE reuse_probe (id int PRIMARY KEY, label text NOT NULL);
      INSERT INTO reuse_probe SELECT n, 'row ' || n FROM generate_series(1, 50) n`);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('leaves the session planning every other statement for its values, in and out of transactions', async () => {
    const mode = async () => (await database.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode'))[0]!.plan_cache_mode;
    await database.query(lookup, [2], { reusePlan: true });
    expect(await mode()).toBe('force_custom_plan');
    // A transaction driven by statements: the mark has no effect inside it.
    await database.query('BEGIN');
    expect(await database.query(lookup, [4], { reusePlan: true })).toEqual([{ id: 4, label: 'row 4' }]);
    expect(await mode()).toBe('force_custom_plan');
    await database.query('ROLLBACK');
    await database.transaction(async (tx) => {
      expect(await tx.query(lookup, [5], { reusePlan: true })).toEqual([{ id: 5, label: 'row 5' }]);
      expect((await tx.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode'))[0]!.plan_cache_mode).toBe('force_custom_plan');
    });
    expect(await mode()).toBe('force_custom_plan');
  });
});
