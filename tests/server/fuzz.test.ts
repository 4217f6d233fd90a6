import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { seedDemoData } from '../../server/seed/demo';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn } from '../support/server';

// Routes whose purpose is to change the session itself; fuzzing them would only sign us out.
const SKIP = new Set(['GET /logout', 'POST /login', 'GET /login', 'GET /callback', 'GET /*']);
// The spec makes these GETs start work (a sync); an accepted one may change stored data.
const STATE_CHANGING_GETS = new Set(['/api/v1/sync/all-vimeo-videos', '/api/v1/sync/contracts/:siteId/:mbClientId']);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 60);

const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }),
  fc.constantFrom({}, [], null, '', 'x'.repeat(70_000), { email: null, mb_client_id: [] }, { client_id: -1, new_vod_access_level: 1e308 }),
);
const segment = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('0', '-1', '1', '99999999999999999999', 'NaN', '%00', '..', 'null', "1' OR '1'='1", '💥'.repeat(10)),
  fc.integer().map(String),
);
const query = fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String)), { maxKeys: 5 });

/** Counts and a checksum of every table: a rejected request must leave all of it as it was. */
async function fingerprint(database: Database): Promise<string> {
  const tables = await database.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname NOT IN ('sessions', 'login_failures', 'jobs', 'job_schedules') ORDER BY 1`,
  );
  const parts = await Promise.all(
    tables.map(async ({ name }) => {
      const [row] = await database.query<{ sum: string }>(`SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM "${name}" t`);
      return `${name}:${row!.sum}`;
    }),
  );
  return parts.join(',');
}

describe('every endpoint survives random and malformed input', () => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    database = await testDatabases()[0]!.open();
    await seedDemoData(database, { clients: 60, videos: 20, now: new Date('2026-11-20T10:00:00Z') });
    app = await createTestApp(database);
    cookie = await signIn(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  // Every route is walked in one test; it grows with each area, so it gets more than the default minute.
  it('answers no 5xx, explains every 4xx, and stores nothing from a rejected request', { timeout: 600_000 }, async () => {
    const routes = app.routeTable.filter((r) => !['HEAD', 'OPTIONS'].includes(r.method) && !SKIP.has(`${r.method} ${r.url}`));
    expect(routes.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const route of routes) {
      const before = await fingerprint(database);
      let changedByAccepted = false;
      await fc.assert(
        fc.asyncProperty(fc.array(segment, { minLength: 3, maxLength: 3 }), query, anyJson, fc.boolean(), async (params, qs, body, rawText) => {
          let i = 0;
          const path = route.url.replace(/:[A-Za-z_]+/g, () => encodeURIComponent(params[i++ % params.length]!)).replace(/\*/g, encodeURIComponent(params[2]!));
          const hasBody = !['GET', 'DELETE'].includes(route.method);
          const response = await app.inject({
            method: route.method as 'GET',
            url: path,
            query: qs,
            headers: { cookie, ...(hasBody ? { 'content-type': rawText ? 'text/plain' : 'application/json' } : {}) },
            payload: hasBody ? (rawText ? String(JSON.stringify(body)).slice(0, 5000) + '}{' : JSON.stringify(body)) : undefined,
          });
          if (response.statusCode >= 500) problems.push(`${route.method} ${path} → ${response.statusCode} ${response.body.slice(0, 200)}`);
          if (response.statusCode >= 400 && response.statusCode < 500) {
            const message = (() => {
              try {
                return response.json().message;
              } catch {
                return undefined;
              }
            })();
            if (typeof message !== 'string' || !message) problems.push(`${route.method} ${path} → ${response.statusCode} without a message`);
          } else if (response.statusCode < 300 && (route.method !== 'GET' || STATE_CHANGING_GETS.has(route.url))) {
            changedByAccepted = true;
          }
          return true;
        }),
        { numRuns: RUNS_PER_ROUTE, seed: 20261122 },
      );
      if (!changedByAccepted && (await fingerprint(database)) !== before) problems.push(`${route.method} ${route.url}: rejected requests changed stored data`);
    }
    expect(problems).toEqual([]);
  });
});
