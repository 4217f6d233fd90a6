import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, STAFF } from '../support/server';
import { insertClient } from '../support/clientFixtures';
import { fakeConsoleBuild, rawRequest } from '../support/rawHttp';

/**
 * The only routes that answer without a staff session. Adding a public route means adding it
 * here on purpose; every other route, including ones added later, must answer 401.
 */
const PUBLIC_ROUTES = new Set([
  'GET /login',
  'POST /login',
  // the second step of a sign-in with two-step on: it checks its own short-lived challenge
  'GET /login/two-step',
  'POST /login/two-step',
  // signing in with a passkey: options with a single-use challenge, the passkey's answer, the page's WebAuthn script
  'POST /login/passkey/options',
  'POST /login/passkey',
  'GET /login/passkey/webauthn.js',
  'GET /logout',
  'POST /logout',
  'GET /callback',
  'GET /healthz',
  'GET /api/isAuthenticated',
  // called by RevenueCat and the mobile app: they check their own keys (Authorization, X-App-Key)
  'POST /api/webhooks/revenuecat',
  'POST /api/app/v1/debug-info',
  'POST /api/app/v1/video-views',
  'POST /api/app/v1/push-opened',
  // the demo library's thumbnails: drawn from the query, no data behind them
  'GET /demo/thumbnail.svg',
  // the built console: its page and its static files
  'GET /',
  'GET /*',
]);

const CLIENT_EMAIL = 'guarded.person@example.test';

const hex = (char: string) => char.charCodeAt(0).toString(16).padStart(2, '0');

/**
 * Other ways to write one path that a router, proxy or browser may treat as the same: percent
 * forms of letters and digits, double encoding, dot segments, doubled and trailing slashes, case,
 * `;` parameters and an encoded slash. `port` gives the absolute form.
 */
export function spellings(path: string, port: number): string[] {
  const segments = path.split('/').slice(1);
  const join = (parts: string[]) => `/${parts.join('/')}`;
  const replaceSegment = (index: number, value: string) => join(segments.map((s, i) => (i === index ? value : s)));
  const out = new Set<string>();
  segments.forEach((segment, index) => {
    if (!segment) return;
    out.add(replaceSegment(index, `%${hex(segment[0]!)}${segment.slice(1)}`));
    out.add(replaceSegment(index, `%${hex(segment[0]!).toUpperCase()}${segment.slice(1)}`));
  });
  out.add(join(segments.map((segment) => [...segment].map((char) => `%${hex(char)}`).join(''))));
  out.add(replaceSegment(0, `%25${hex(segments[0]![0]!)}${segments[0]!.slice(1)}`));
  out.add(`http://127.0.0.1:${port}${path}`);
  out.add(`http://another.example${path}`);
  out.add(`/${path}`);
  out.add(path.replace(/\/([^/]*)$/, '//$1'));
  out.add(`${path}/`);
  out.add(`${path}.`);
  out.add(`${path}/.`);
  out.add(`${path}%20`);
  out.add(`${path}%00`);
  out.add(join([segments[0]!, '.', ...segments.slice(1)]));
  out.add(join(['x', '..', ...segments]));
  out.add(join(['x', '%2e%2e', ...segments]));
  out.add(path.toUpperCase());
  out.add(replaceSegment(0, segments[0]!.charAt(0).toUpperCase() + segments[0]!.slice(1)));
  out.add(replaceSegment(0, `${segments[0]};x=1`));
  out.add(`${path};jsessionid=1`);
  if (segments.length > 1) out.add(`/${segments[0]}%2f${segments.slice(1).join('/')}`);
  return [...out];
}

/** A JSON error answer and nothing else. */
function messageOnly(body: string): boolean {
  try {
    return Object.keys(JSON.parse(body) as object).every((key) => key === 'message' || key === 'status');
  } catch {
    return false;
  }
}

describe.each(testDatabases())('every route is guarded ($name)', (testDatabase) => {
  let database: Database;
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    database = await testDatabase.open();
    app = await createTestApp(database, { env: { CONSOLE_DIR: fakeConsoleBuild() } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
    // Data behind the routes, so an answer that leaks would show it.
    await insertClient(database, { first_name: 'Guarded', last_name: 'Person', email_address: CLIENT_EMAIL, mb_client_id: '1', mb_site_id: -99 });
    await signIn(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const guardedRoutes = () =>
    app.routeTable.filter((route) => route.method !== 'OPTIONS' && !PUBLIC_ROUTES.has(`${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`));
  const samplePath = (url: string) => url.replace(/:[A-Za-z_]+/g, '1').replace(/\*/g, 'x');

  it('knows the routes of every area, the console files among them', () => {
    expect(app.routeTable.length).toBeGreaterThan(40);
    expect(app.routeTable.map((route) => `${route.method} ${route.url}`)).toContain('GET /*');
  });

  it('answers 401 without a session on everything but the public list', async () => {
    const unguarded: string[] = [];
    for (const route of guardedRoutes()) {
      const response = await app.inject({
        method: route.method as 'GET',
        url: samplePath(route.url),
        payload: ['GET', 'HEAD', 'DELETE'].includes(route.method) ? undefined : {},
      });
      if (response.statusCode !== 401) unguarded.push(`${route.method} ${route.url} → ${response.statusCode}`);
    }
    expect(unguarded).toEqual([]);
  });

  it('answers 401, or 404 without data, to every other spelling of every guarded path', async () => {
    const leaks: string[] = [];
    let sent = 0;
    for (const route of guardedRoutes()) {
      const path = samplePath(route.url);
      const hasBody = !['GET', 'HEAD', 'DELETE'].includes(route.method);
      for (const target of spellings(path, port)) {
        const response = await rawRequest(port, route.method, target, hasBody ? { 'content-type': 'application/json' } : {}, hasBody ? '{}' : '');
        sent += 1;
        const body = response.body;
        const onlyMessage = route.method === 'HEAD' ? body === '' : messageOnly(body);
        const leaked = body.includes(CLIENT_EMAIL) || body.includes(STAFF.email) || body.includes('Guarded');
        if (![401, 404].includes(response.status) || !onlyMessage || leaked) leaks.push(`${route.method} ${target} → ${response.status} ${body.slice(0, 80)}`);
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(leaks).toEqual([]);
  });

  it('refuses the reported spellings with 401 and no data', async () => {
    const reported: [string, string][] = [
      ['GET', '/%61pi/client/v1/client-details/1'],
      ['GET', `http://127.0.0.1:${port}/api/admin/v1/staff`],
      ['GET', '/%61pi/admin/v1/audit/export'],
      ['POST', '/%31/indexes/Customers/query'],
      ['GET', '/api/client/v1/%63lient-details/1'],
    ];
    for (const [method, target] of reported) {
      const response = await rawRequest(
        port,
        method,
        target,
        method === 'POST' ? { 'content-type': 'application/json' } : {},
        method === 'POST' ? '{"query":"guarded"}' : '',
      );
      expect(response.status, target).toBe(401);
      expect(response.body, target).not.toContain(CLIENT_EMAIL);
      expect(response.body, target).not.toContain(STAFF.email);
    }
  });

  it('marks only listed routes as public', () => {
    const publicRoutes = app.routeTable.filter((route) => route.public && route.method !== 'HEAD').map((route) => `${route.method} ${route.url}`);
    for (const key of publicRoutes) expect(PUBLIC_ROUTES, key).toContain(key);
  });

  it('gives no data to a request that matches no route, whatever its spelling', async () => {
    for (const target of ['/api/nothing-here', '/%61pi/nothing-here', '/1/nothing', '/api/client/v1/client-details', 'http://127.0.0.1/api/client/v1/']) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        const response = await rawRequest(port, method, target, { accept: 'application/json' });
        expect([401, 404], `${method} ${target}`).toContain(response.status);
        expect(response.body).not.toContain(CLIENT_EMAIL);
      }
    }
  });
});
