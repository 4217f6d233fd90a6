import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/src/db/client';
import { seedDemoData } from '../../server/seed/demo';
import { testDatabases } from '../support/databases';

/**
 * A seeded data set is handed over settled: every table the generator filled has been vacuumed, so
 * the first start does not spend minutes on PostgreSQL's autovacuum of 10,000,000 loaded views (or,
 * on PGlite, on writing pages back as their rows are first read), and every client's access from
 * their purchases is computed, so the access-expiry job does not go through half a million clients
 * one by one beside the first staff's requests.
 */
const SEEDED_AT = new Date('2026-11-22T12:00:00Z');

describe.each(testDatabases())('the demo seed on $name', ({ open }) => {
  let database: Database;

  beforeAll(async () => {
    database = await open();
    await seedDemoData(database, { clients: 300, videos: 40, viewsPerClient: 4, now: SEEDED_AT });
  });
  afterAll(async () => database.close());

  it('leaves every filled table vacuumed: all its pages visible to index-only scans', async () => {
    const tables = await database.query<{ name: string; pages: number; visible: number }>(
      `SELECT c.relname AS name, c.relpages AS pages, c.relallvisible AS visible
       FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relpages > 0
       ORDER BY c.relname`,
    );
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['clients', 'video_views', 'mindbody_visits', 'purchases', 'favorites']));
    expect(tables.filter((table) => table.visible < table.pages)).toEqual([]);
  });

  it("leaves no client before the access-expiry job: each one's level is what their purchases give", async () => {
    const [row] = await database.query<{ due: number; paid: number }>(
      `SELECT count(*) FILTER (WHERE purchase_access_changes_at <= $1)::int AS due,
              count(*) FILTER (WHERE purchase_access_level IS NOT NULL)::int AS paid FROM clients`,
      [SEEDED_AT.toISOString()],
    );
    expect(row).toEqual({ due: 0, paid: expect.any(Number) });
    expect(row!.paid).toBeGreaterThan(0);
  });
});
