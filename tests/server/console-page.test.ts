import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { SESSION_STATE_ELEMENT_ID } from '@contract/pageState';
import { upsertStaffUser } from '../../server/src/staff/accounts';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, STAFF, testClock } from '../support/server';

/** What the console page tells the console about its session, as the browser would read it. */
const sessionState = (html: string) => {
  const match = new RegExp(`<script type="application/json" id="${SESSION_STATE_ELEMENT_ID}">(.*?)</script>`).exec(html);
  return match ? (JSON.parse(match[1]!) as unknown) : undefined;
};

// The console page carries the signed-in state, so a cold load needs no
// /api/isAuthenticated round trip before it can render; the answer must be the same one.
describe.each(testDatabases())('the console page on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock();
  const consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-'));
  fs.writeFileSync(
    path.join(consoleDir, 'index.html'),
    '<!doctype html><html><head><title>x</title><script type="module" crossorigin src="/assets/index-A.js"></script></head><body><div id="root"></div></body></html>',
  );
  // What Vite's build manifest says of the entry and three pages (keys: source modules and shared
  // chunks; a page grouped into its own named chunk, as vite.config.ts does, is listed by that name).
  fs.mkdirSync(path.join(consoleDir, '.vite'));
  fs.writeFileSync(
    path.join(consoleDir, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_shared-S.js'], dynamicImports: ['src/clients/ClientListPage.tsx'] },
      '_shared-S.js': { file: 'assets/shared-S.js' },
      '_table-T.js': { file: 'assets/table-T.js', imports: ['_cell-C.js', '_shared-S.js'] },
      '_cell-C.js': { file: 'assets/cell-C.js', imports: ['_table-T.js'] },
      'src/clients/ClientListPage.tsx': { file: 'assets/ClientListPage-L.js', isDynamicEntry: true, imports: ['_shared-S.js', '_table-T.js'] },
      'src/dashboard/Dashboard.tsx': { file: 'assets/Dashboard-D.js', isDynamicEntry: true },
      '_page-ClientShow-P.js': { file: 'assets/page-ClientShow-P.js', name: 'page-ClientShow', imports: ['index.html', '_table-T.js'] },
    }),
  );

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock, env: { CONSOLE_DIR: consoleDir } });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const page = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
  const isAuthenticated = async (cookie?: string) =>
    (await app.inject({ method: 'GET', url: '/api/isAuthenticated', headers: cookie ? { cookie } : {} })).json();

  it('carries the same answer as /api/isAuthenticated for a signed-in staff member, on every console path', async () => {
    const cookie = await signIn(app, { ...STAFF, role: 'front_desk' });
    const expected = await isAuthenticated(cookie);
    expect(expected).toMatchObject({ isAuthenticated: true, user: { email: STAFF.email, role: 'front_desk' } });
    for (const url of ['/', '/clients/all', '/client/42', '/dashboard?x=1']) {
      const response = await page(url, cookie);
      expect(response.statusCode).toBe(200);
      expect(sessionState(response.body)).toEqual(expected);
      // Personal data in the page: never kept by a cache, shared or the browser's.
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('says signed out without a cookie, with a forged one, and after signing out', async () => {
    const signedOut = { isAuthenticated: false, user: null };
    expect(sessionState((await page('/clients/all')).body)).toEqual(signedOut);
    expect(sessionState((await page('/', 'studio_session=forged.value')).body)).toEqual(signedOut);

    const cookie = await signIn(app);
    expect(sessionState((await page('/', cookie)).body)).toMatchObject({ isAuthenticated: true });
    const logout = await app.inject({ method: 'GET', url: '/logout', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(logout.statusCode).toBeLessThan(400);
    expect(sessionState((await page('/', cookie)).body)).toEqual(signedOut);
  });

  it('keeps a nickname that looks like markup inside the JSON element', async () => {
    const who = { email: 'markup@studio.test', password: 'correct horse battery', role: 'owner' as const };
    await upsertStaffUser(app.database, { ...who, nickname: '</script><script>alert(1)</script>' });
    const cookie = await signIn(app, who);
    const html = (await page('/', cookie)).body;
    expect(html).not.toContain('<script>alert(1)');
    expect(sessionState(html)).toMatchObject({ user: { nickname: '</script><script>alert(1)</script>' } });
  });

  /** The page code a console page asks the browser to fetch beside the console's own. */
  const preloaded = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)"/g)].map((match) => match[1]);

  it("announces the code of the page it opens on beside the console's own, once each, for a signed-in browser only", async () => {
    const cookie = await signIn(app);
    expect(preloaded((await page('/clients/all', cookie)).body)).toEqual(['/assets/ClientListPage-L.js', '/assets/table-T.js', '/assets/cell-C.js']);
    expect(preloaded((await page('/clients/new?page=2', cookie)).body)).toEqual(['/assets/ClientListPage-L.js', '/assets/table-T.js', '/assets/cell-C.js']);
    expect(preloaded((await page('/', cookie)).body)).toEqual(['/assets/Dashboard-D.js']);
    expect(preloaded((await page('/client/42', cookie)).body)).toEqual(['/assets/page-ClientShow-P.js', '/assets/table-T.js', '/assets/cell-C.js']);
    for (const other of ['/videos', '/clients', '/clients/all/extra', '/client/']) expect(preloaded((await page(other, cookie)).body)).toEqual([]);
    // Signed out, the browser leaves for the login page: nothing to fetch.
    expect(preloaded((await page('/clients/all')).body)).toEqual([]);
  });

  it('does not serve the build manifest', async () => {
    for (const url of ['/.vite/manifest.json', '/%2Evite/manifest.json', '/assets/../.vite/manifest.json']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('ClientListPage');
    }
  });
});
