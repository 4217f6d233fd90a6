import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/src/db/client';
import type { RowSchema } from '../../server/src/db/rows';
import { listTotal } from '../../server/src/clients/lists';

/** A database that answers the planner's estimate and the capped count, and records what was asked. */
function fakeDatabase(answers: { estimate: number; count: number }) {
  const asked: string[] = [];
  const answer = (sqlText: string) => {
    if (sqlText.startsWith('EXPLAIN')) {
      asked.push('estimate');
      return [{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': answers.estimate } }] }];
    }
    asked.push('count');
    return [{ n: Math.min(answers.count, 10_001) }];
  };
  const database = {
    // Each row checked against the caller's schema, as the real `rows` does.
    rows: async (row: RowSchema, sqlText: string) => answer(sqlText).map((item) => row.parse(item)),
  } as unknown as Database;
  return { database, asked };
}

const now = new Date('2026-11-22T12:00:00Z');
const firstPage = { offset: 0, rows: 25, hasNext: true };

describe('list totals without counting a million rows', () => {
  it('takes the exact total from a page that has no next page, asking nothing more', async () => {
    const { database, asked } = fakeDatabase({ estimate: 1, count: 1 });
    expect(await listTotal(database, { listId: 1, now, filter: {} }, { offset: 50, rows: 7, hasNext: false })).toEqual({ total: 57, estimate: false });
    expect(asked).toEqual([]);
  });

  it("keeps a large list's estimate, flagged, without counting", async () => {
    const { database, asked } = fakeDatabase({ estimate: 1_000_000, count: 1_000_000 });
    expect(await listTotal(database, { listId: 1, now, filter: {} }, firstPage)).toEqual({ total: 1_000_000, estimate: true });
    expect(asked).toEqual(['estimate']);
  });

  it('counts a list the planner expects to be small, exactly', async () => {
    const { database, asked } = fakeDatabase({ estimate: 2_100, count: 1_998 });
    expect(await listTotal(database, { listId: 3, now, filter: {} }, firstPage)).toEqual({ total: 1_998, estimate: false });
    expect(asked).toEqual(['estimate', 'count']);
  });

  it('counts a quick filter up to 50,000 expected rows, since its estimate is rough', async () => {
    const { database, asked } = fakeDatabase({ estimate: 10_101, count: 4_928 });
    expect(await listTotal(database, { listId: 1, now, filter: { q: 'smith' } }, firstPage)).toEqual({ total: 4_928, estimate: false });
    expect(asked).toEqual(['estimate', 'count']);
  });

  it('stops counting at 10,001 and flags the larger of that and the estimate', async () => {
    const { database } = fakeDatabase({ estimate: 12_000, count: 30_000 });
    expect(await listTotal(database, { listId: 1, now, filter: { q: 'a' } }, firstPage)).toEqual({ total: 12_000, estimate: true });
    const low = fakeDatabase({ estimate: 9_000, count: 30_000 });
    expect(await listTotal(low.database, { listId: 2, now, filter: {} }, firstPage)).toEqual({ total: 10_001, estimate: true });
  });

  it('never answers fewer rows than the page shows to exist', async () => {
    const { database } = fakeDatabase({ estimate: 400_000, count: 0 });
    expect(await listTotal(database, { listId: 1, now, filter: {} }, { offset: 499_975, rows: 25, hasNext: true })).toEqual({ total: 500_001, estimate: true });
  });
});
