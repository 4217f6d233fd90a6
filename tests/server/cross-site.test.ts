import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { loggableUrl } from '../../server/src/lib/logging';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn } from '../support/server';
import { insertClient } from '../support/clientFixtures';
import { fakeConsoleBuild, rawRequest } from '../support/rawHttp';

/** What a browser sends with a top-level navigation from another site's link or redirect. */
const FOREIGN_NAVIGATION = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', referer: 'https://evil.example/' };
/** What the console's own fetch() sends. */
const OWN_FETCH = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' };

const vimeoSyncCount = async (database: Database) => Number((await database.query<{ n: number }>('SELECT count(*)::int AS n FROM vimeo_syncs'))[0]!.n);
const auditCount = async (database: Database, action: string) =>
  Number((await database.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE action = $1', [action]))[0]!.n);

describe.each(testDatabases())('cross-site navigation and response hygiene on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { env: { CONSOLE_DIR: fakeConsoleBuild() } });
    await insertClient(database, { first_name: 'Nora', last_name: 'Nav', email_address: 'nora@example.test', mb_client_id: '501', mb_site_id: -99 });
    cookie = await signIn(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const stillSignedIn = async (session: string) =>
    (await app.inject({ method: 'GET', url: '/api/isAuthenticated', headers: { cookie: session } })).json().isAuthenticated as boolean;

  it('refuses the GET sync calls to another site and to navigations, and runs them for the console', async () => {
    const before = await vimeoSyncCount(database);
    const contractSyncsBefore = await auditCount(database, 'client.contracts_sync');
    for (const headers of [
      FOREIGN_NAVIGATION,
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      { referer: 'https://evil.example/page' },
    ]) {
      for (const url of ['/api/v1/sync/all-vimeo-videos', '/api/v1/sync/contracts/-99/501']) {
        const response = await app.inject({ method: 'GET', url, headers: { cookie, ...headers } });
        expect(response.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(403);
        expect(response.json().message).toMatch(/must come from the console/);
      }
    }
    expect(await vimeoSyncCount(database)).toBe(before);
    expect(await auditCount(database, 'client.contracts_sync')).toBe(contractSyncsBefore);
    const head = await app.inject({ method: 'HEAD', url: '/api/v1/sync/all-vimeo-videos', headers: { cookie, ...OWN_FETCH } });
    expect(head.statusCode).toBe(404);
    expect(await vimeoSyncCount(database)).toBe(before);

    const own = await app.inject({ method: 'GET', url: '/api/v1/sync/all-vimeo-videos', headers: { cookie, ...OWN_FETCH } });
    expect(own.statusCode).toBe(200);
    expect(await vimeoSyncCount(database)).toBe(before + 1);
    const contracts = await app.inject({ method: 'GET', url: '/api/v1/sync/contracts/-99/501', headers: { cookie, ...OWN_FETCH } });
    expect(contracts.statusCode).toBe(200);
    expect(await auditCount(database, 'client.contracts_sync')).toBe(contractSyncsBefore + 1);
  });

  it('asks before signing out when /logout is reached from another site, and signs out on the button', async () => {
    const session = await signIn(app);
    for (const headers of [FOREIGN_NAVIGATION, { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate' }, {}, { referer: 'https://evil.example/' }]) {
      const page = await app.inject({ method: 'GET', url: '/logout', headers: { cookie: session, ...headers } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('Do you want to sign out of Studio Console?');
      expect(page.body).toMatch(/<form method="post" action="\/logout">\s*<button type="submit" autofocus>Sign out<\/button>/);
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(await stillSignedIn(session)).toBe(true);
    }
    const foreignPost = await app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie: session, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(foreignPost.statusCode).toBe(403);
    expect(await stillSignedIn(session)).toBe(true);

    const confirmed = await app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie: session, origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(confirmed.statusCode).toBe(302);
    expect(confirmed.headers.location).toBe('/login');
    expect(await stillSignedIn(session)).toBe(false);
  });

  it('signs out at once from the console itself or a typed address', async () => {
    for (const headers of [
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' },
      { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' },
      { referer: 'http://localhost:80/clients/all' },
    ]) {
      const session = await signIn(app);
      const response = await app.inject({ method: 'GET', url: '/logout', headers: { cookie: session, host: 'localhost:80', ...headers } });
      expect(response.statusCode, JSON.stringify(headers)).toBe(302);
      expect(await stillSignedIn(session)).toBe(false);
    }
  });

  it('marks every API answer no-store, and leaves the console files cacheable', async () => {
    for (const url of [
      '/api/client/v1/clients/1',
      '/api/admin/v1/audit',
      '/api/stats/v1',
      '/api/admin/v1/clients?filter={}',
      '/api/isAuthenticated',
      '/api/does-not-exist',
    ]) {
      const response = await app.inject({ method: 'GET', url, headers: { cookie } });
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const signedOut = await app.inject({ method: 'GET', url: '/api/client/v1/clients/1' });
    expect(signedOut.headers['cache-control']).toBe('no-store');
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('serves the console at / to any client, with or without Accept-Encoding', async () => {
    const port = await listening(app);
    const variants: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'br, gzip' }, { accept: 'application/json' }];
    for (const headers of variants) {
      const response = await rawRequest(port, 'GET', '/', headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root"></div>');
    }
    const plainAsset = await rawRequest(port, 'GET', '/assets/index-abc123.js');
    expect(plainAsset.status).toBe(200);
    expect(plainAsset.body).toContain('studio console');
    const gzipAsset = await rawRequest(port, 'GET', '/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gzipAsset.headers['content-encoding']).toBe('gzip');
  });

  it('says only that it is up at /healthz', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

async function listening(app: FastifyInstance): Promise<number> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

describe.each(testDatabases())('with PUBLIC_URL on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { env: { PUBLIC_URL: 'https://console.studio.test' } });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('refuses any other Host, and answers its own name with or without the default port', async () => {
    for (const host of ['evil.example', 'console.studio.test.evil.example', '127.0.0.1:3000', 'console.studio.test:8443']) {
      const response = await app.inject({ method: 'GET', url: '/login', headers: { host } });
      expect(response.statusCode, host).toBe(421);
      expect(response.json().message).toBe('Misdirected request: this server answers only for console.studio.test (PUBLIC_URL).');
    }
    const refusedApi = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { host: 'evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a&password=b',
    });
    expect(refusedApi.statusCode).toBe(421);
    for (const host of ['console.studio.test', 'CONSOLE.studio.test', 'console.studio.test:443']) {
      const response = await app.inject({ method: 'GET', url: '/login', headers: { host } });
      expect(response.statusCode, host).toBe(200);
    }
  });

  it('answers a health check under any Host (load balancers probe by address)', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz', headers: { host: '10.0.0.7:3000' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('logs', () => {
  it('keep no query values and no e-mail in a logged URL', () => {
    expect(loggableUrl('/api/client/v1/clients/1?q=ann%40mail.test&page=2')).toBe('/api/client/v1/clients/1?q=…&page=…');
    expect(loggableUrl('/api/client/v1/client-details/-99/100/ann@mail.test/debug')).toBe('/api/client/v1/client-details/-99/100/:redacted/debug');
    expect(loggableUrl('/api/client/v1/client-details/-99/100/ann%40mail.test/debug')).toBe('/api/client/v1/client-details/-99/100/:redacted/debug');
    expect(loggableUrl('/api/admin/v1/clients?filter=%7B%22q%22%3A%22Nora%22%7D&filter=x')).toBe('/api/admin/v1/clients?filter=…');
    expect(loggableUrl('/healthz')).toBe('/healthz');
  });

  it.each(testDatabases())('write no client e-mail or search text on $name', async ({ open }) => {
    const database = await open();
    const lines: string[] = [];
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', CONSOLE_DIR: '/nonexistent', MINDBODY_SYNC_INTERVAL_MINUTES: '0' }),
      database,
      logStream: { write: (line: string) => void lines.push(line) },
    });
    await app.ready();
    try {
      const cookie = await signIn(app);
      await insertClient(database, {
        first_name: 'Lena',
        last_name: 'Logless',
        email_address: 'lena.logless@example.test',
        mb_client_id: '777',
        mb_site_id: -99,
      });
      await app.inject({ method: 'GET', url: '/api/client/v1/clients/1?q=lena.logless%40example.test', headers: { cookie } });
      await app.inject({ method: 'GET', url: '/api/client/v1/client-details/-99/777/lena.logless@example.test/debug', headers: { cookie } });
      await app.inject({ method: 'GET', url: `/api/admin/v1/clients?filter=${encodeURIComponent('{"q":"Logless"}')}`, headers: { cookie } });
      const log = lines.join('');
      expect(log).toContain('incoming request');
      expect(log).not.toMatch(/lena\.logless|Logless|coach@studio\.test/i);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
