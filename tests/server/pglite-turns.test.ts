import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/src/db/client';

/**
 * The embedded database runs statements on the server's own thread. Queued statements must leave
 * the event loop a turn between them, or sockets (new connections, requests) wait for all of them.
 */
describe('PGlite statements and the event loop', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await database.close();
  });

  it('lets I/O callbacks run between queued statements instead of after all of them', async () => {
    let finished = 0;
    const statements = Array.from({ length: 50 }, () =>
      database.query('SELECT count(*) FROM generate_series(1, 2000)').then(() => {
        finished++;
      }),
    );
    const finishedWhenTheLoopGotATurn = await new Promise<number>((resolve) => setImmediate(() => resolve(finished)));
    await Promise.all(statements);
    expect(finished).toBe(50);
    expect(finishedWhenTheLoopGotATurn).toBeLessThan(5);
  });

  it('keeps statements in the order they were sent, transactions included', async () => {
    const order: string[] = [];
    await database.execScript('CREATE TABLE turn_log (n int)');
    await Promise.all([
      database.query('INSERT INTO turn_log VALUES (1)').then(() => order.push('first')),
      database.transaction(async (tx) => {
        await tx.query('INSERT INTO turn_log VALUES (2)');
        await tx.query('INSERT INTO turn_log VALUES (3)');
      }).then(() => order.push('transaction')),
      database.query('SELECT array_agg(n ORDER BY n) AS ns FROM turn_log').then((rows) => order.push(`saw ${JSON.stringify(rows[0]!.ns)}`)),
    ]);
    expect(order).toEqual(['first', 'transaction', 'saw [1,2,3]']);
  });
});
