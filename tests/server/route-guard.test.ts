import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp } from '../support/server';

/**
 * The only routes that answer without a staff session. Adding a public route means adding it
 * here on purpose; every other route, including ones added later, must answer 401.
 */
const PUBLIC_ROUTES = new Set([
  'GET /login',
  'POST /login',
  'GET /logout',
  'GET /callback',
  'GET /healthz',
  'GET /api/isAuthenticated',
  // called by RevenueCat and the mobile app: they check their own keys (Authorization, X-App-Key)
  'POST /api/webhooks/revenuecat',
  'POST /api/app/v1/debug-info',
  'POST /api/app/v1/video-views',
  // the demo library's thumbnails: drawn from the query, no data behind them
  'GET /demo/thumbnail.svg',
  // the built console's static files
  'GET /*',
]);

describe('every route is guarded', () => {
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await testDatabases()[0]!.open();
    app = await createTestApp(database);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('knows the routes of every area', () => {
    expect(app.routeTable.length).toBeGreaterThan(10);
  });

  it('answers 401 without a session on everything but the public list', async () => {
    const unguarded: string[] = [];
    for (const route of app.routeTable) {
      if (route.method === 'HEAD' || route.method === 'OPTIONS') continue;
      const key = `${route.method} ${route.url}`;
      if (PUBLIC_ROUTES.has(key)) continue;
      const url = route.url.replace(/:[A-Za-z_]+/g, '1').replace(/\*/g, 'x');
      const response = await app.inject({ method: route.method as 'GET', url, payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
      if (response.statusCode !== 401) unguarded.push(`${key} → ${response.statusCode}`);
    }
    expect(unguarded).toEqual([]);
  });

  it('marks only listed routes as public', () => {
    const publicRoutes = app.routeTable.filter((route) => route.public && route.method !== 'HEAD').map((route) => `${route.method} ${route.url}`);
    for (const key of publicRoutes) expect(PUBLIC_ROUTES, key).toContain(key);
  });
});
