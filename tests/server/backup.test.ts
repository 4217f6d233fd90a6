import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/src/db/client';
import { dumpLines, restoreLines, withSnapshot, type DumpLine } from '../../server/src/db/dump';
import { seedDemoData } from '../../server/seed/demo';
import { upsertStaffUser } from '../../server/src/staff/accounts';
import { expirePurchaseAccess } from '../../server/src/revenuecat/events';
import { testDatabases } from '../support/databases';

const fingerprint = async (database: Database) => {
  const [row] = await database.query<{ clients: string; views: string; contracts: string; overrides: string; staff: number }>(`
    SELECT (SELECT md5(string_agg(c::text, '|' ORDER BY id)) FROM clients c) AS clients,
           (SELECT md5(string_agg(h::text, '|' ORDER BY id)) FROM access_override_history h) AS overrides,
           (SELECT md5(string_agg(v::text, '|' ORDER BY id)) FROM video_views v) AS views,
           (SELECT md5(string_agg(k.upcoming_autopay_events::text || k.contract_name, '|' ORDER BY pk)) FROM contracts k) AS contracts,
           (SELECT count(*)::int FROM staff_users) AS staff`);
  return row!;
};

const SEEDED_AT = new Date('2026-11-01T10:00:00Z');

async function* replay(lines: DumpLine[]) {
  yield* lines;
}

describe('backup and restore', () => {
  let source: Database;
  let dump: DumpLine[];

  beforeAll(async () => {
    source = await testDatabases()[0]!.open();
    await seedDemoData(source, { clients: 120, videos: 30, now: SEEDED_AT });
    await upsertStaffUser(source, { email: 'owner@studio.test', password: 'owner-password', role: 'owner' });
    dump = [];
    await withSnapshot(source, async (run) => {
      for await (const line of dumpLines(run, new Date())) dump.push(line);
    });
  });
  afterAll(async () => {
    await source.close();
  });

  it('ends with every table and its row count', () => {
    const end = dump.at(-1) as Extract<DumpLine, { end: true }>;
    expect(end.end).toBe(true);
    expect(end.tables.clients).toBe(120);
    expect(end.tables.access_levels).toBe(3);
    // The demo's override in force (client 97) and one the job ended (client 89): the history is data, not derived.
    expect(end.tables.access_override_history).toBe(2);
  });

  describe.each(testDatabases())('into $name', ({ open }) => {
    let target: Database;
    beforeAll(async () => {
      target = await open();
    });
    afterAll(async () => {
      await target.close();
    });

    it('refuses a damaged dump and changes nothing', async () => {
      const truncated = dump.slice(0, -1);
      await expect(restoreLines(target, replay(truncated))).rejects.toThrow(/incomplete/);
      const [{ levels }] = await target.query<{ levels: number }>('SELECT count(*)::int AS levels FROM access_levels');
      expect(levels).toBe(3);
    });

    it('restores every row, and ids continue after the restored ones', async () => {
      await restoreLines(target, replay(dump));
      // Restored purchases put their clients before the access-expiry job again (migration 0031), as any
      // written purchase does; the job, run at the seed's moment, gives back what the source computed.
      const [{ due }] = await target.query<{ due: number }>(`SELECT count(*)::int AS due FROM clients WHERE purchase_access_changes_at = '-infinity'`);
      expect(due).toBeGreaterThan(0);
      await expirePurchaseAccess({ database: target, clock: { now: () => SEEDED_AT } });
      expect(await fingerprint(target)).toEqual(await fingerprint(source));
      const [row] = await target.query<{ id: number }>(
        `INSERT INTO clients (first_name, last_name, email_address) VALUES ('New', 'Client', 'new@studio.test') RETURNING id`,
      );
      expect(row!.id).toBe(121);
    });

    it('refuses to restore over existing data', async () => {
      await expect(restoreLines(target, replay(dump))).rejects.toThrow(/already holds data/);
    });
  });
});
