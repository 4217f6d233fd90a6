import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/src/db/client';
import { dumpLines, restoreLines, withSnapshot, type DumpLine } from '../../server/src/db/dump';
import { seedDemoData } from '../../server/seed/demo';
import { testDatabases } from '../support/databases';

const AGGREGATES = ['category_plays_daily', 'video_plays_daily', 'client_paid_spans', 'paid_span_days'];

const contents = async (database: Database) => {
  const result: Record<string, unknown[]> = {};
  for (const table of AGGREGATES) {
    result[table] = await database.query(`SELECT t::text AS row FROM ${table} t ORDER BY 1`);
  }
  return result;
};

async function* replay(lines: DumpLine[]) {
  yield* lines;
}

describe.each(testDatabases())('dashboard aggregates across a backup and restore into $name', ({ open }) => {
  let source: Database;
  let target: Database;
  let dump: DumpLine[];

  beforeAll(async () => {
    source = await testDatabases()[0]!.open();
    await seedDemoData(source, { clients: 150, videos: 30, now: new Date('2026-11-01T10:00:00Z') });
    dump = [];
    await withSnapshot(source, async (run) => {
      for await (const line of dumpLines(run, new Date())) dump.push(line);
    });
    target = await open();
  });
  afterAll(async () => {
    await source.close();
    await target.close();
  });

  it('leaves the derived tables out of the dump', () => {
    const tables = dump.filter((line): line is Extract<DumpLine, { table: string }> => 'table' in line).map((line) => line.table);
    expect(tables).toContain('video_views');
    for (const table of AGGREGATES) expect(tables).not.toContain(table);
  });

  it('rebuilds them from the restored rows: the same, not doubled', async () => {
    await restoreLines(target, replay(dump));
    const restored = await contents(target);
    expect(restored.category_plays_daily!.length).toBeGreaterThan(0);
    expect(restored).toEqual(await contents(source));
  });
});
