import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import type { MindbodyApi } from '../../server/src/integrations/mindbody';
import type { TestDatabase } from './databases';
import { createTestApp, testClock } from './server';
import { rcEvent, type EventOptions } from './revenuecatEvents';

export const SECRET = 'rc-webhook-secret-for-tests';
export const START = new Date('2026-11-22T12:00:00Z');

export interface Newcomer {
  id: string;
  email: string;
  first: string;
}

/** A Mindbody site that lists the given clients once. */
function mindbodyListing(clients: Newcomer[]): MindbodyApi {
  return {
    mode: 'sandbox',
    siteIds: [-99],
    async *clientPages() {
      yield {
        clients: clients.map((c) => ({
          mb_client_id: c.id,
          unique_id: null,
          first_name: c.first,
          last_name: 'Imported',
          email_address: c.email,
          client_status: 'Active',
          last_modified_at: null,
        })),
        skipped: 0,
        offset: 0,
        nextOffset: null,
        total: clients.length,
      };
    },
    getClientVisits: async () => [],
    getClientContracts: async () => [],
  };
}

/**
 * One app per database for a RevenueCat test file, emptied before each test, with a client Ada
 * (ada@example.test, no RevenueCat id yet, free level) and helpers to deliver events and read back.
 */
export function revenueCatHarness(open: TestDatabase['open'], env: Record<string, string> = {}) {
  let database: Database;
  let app: FastifyInstance;
  let ada = 0;
  const clock = testClock(START);
  const newcomers: Newcomer[] = [];

  const addClient = async (values: { email: string; rc?: string; vod?: number; overrideUntil?: Date }) => {
    const [row] = await database.query<{ id: number }>(
      `INSERT INTO clients (first_name, email_address, revenue_cat_user_id, vod_access_level, admin_updated_expiration)
       VALUES ('Test', $1, $2, $3, $4) RETURNING id`,
      [values.email, values.rc ?? null, values.vod ?? 1, values.overrideUntil?.toISOString() ?? null],
    );
    return Number(row!.id);
  };
  /** `null` sends no Authorization header at all. */
  const post = (body: unknown, authorization: string | null = SECRET) =>
    app.inject({ method: 'POST', url: '/api/webhooks/revenuecat', headers: authorization === null ? {} : { authorization }, payload: body as object });
  /** Delivers an event and lets the background job process it. */
  const deliver = async (type: string, options: Partial<EventOptions> = {}) => {
    const body = rcEvent(type, { at: clock.now(), ...options });
    const response = await post(body);
    expect(response.statusCode).toBe(200);
    await app.jobs.runDue();
    return body;
  };
  const levels = async (id = ada) =>
    (
      await database.query<{ vod_access_level: number; purchase_access_level: number | null; revenue_cat_user_id: string | null }>(
        'SELECT vod_access_level, purchase_access_level, revenue_cat_user_id FROM clients WHERE id = $1',
        [id],
      )
    )[0]!;
  const history = (id = ada) =>
    database.query<Record<string, unknown>>(
      `SELECT p.revenue_cat_user_id, al.name, p.subscription_identifier, p.upsell_source, p.purchased_at, p.expires_at, p.subscription_status
       FROM purchases p LEFT JOIN access_levels al ON al.id = p.access_level_id WHERE p.client_id = $1 ORDER BY p.id`,
      [id],
    );
  const statuses = async (id = ada) => (await history(id)).map((row) => row.subscription_status);
  const count = async (table: string) => (await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock, env: { REVENUECAT_WEBHOOK_AUTH: SECRET, ...env }, mindbody: mindbodyListing(newcomers) });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    clock.set(START);
    newcomers.length = 0;
    await database.execScript(
      'DELETE FROM revenuecat_events; DELETE FROM purchases; DELETE FROM clients; DELETE FROM jobs; DELETE FROM mindbody_sync_runs; DELETE FROM mindbody_sync_state;',
    );
    // Tests move the clock forward and back: each starts with the schedules one period after START.
    await database.query(`UPDATE job_schedules SET next_run_at = $1::timestamptz + every_ms * interval '1 millisecond'`, [START.toISOString()]);
    ada = await addClient({ email: 'ada@example.test' });
  });

  return {
    clock,
    newcomers,
    addClient,
    post,
    deliver,
    levels,
    history,
    statuses,
    count,
    get ada() {
      return ada;
    },
    get database() {
      return database;
    },
    get app() {
      return app;
    },
  };
}
