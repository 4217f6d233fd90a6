import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { safeReturnPath } from '../../server/src/auth/returnPath';
import { upsertStaffUser } from '../../server/src/staff/accounts';
import { testDatabases } from '../support/databases';
import { startIdentityProvider, type IdentityProvider } from '../support/identityProvider';
import { createTestApp, STAFF } from '../support/server';

// Every spelling we know of that a browser (or a proxy decoding once) could read as another site.
const OPEN_REDIRECTS = [
  '//evil.com',
  '///evil.com',
  '////evil.com/x',
  '/\\evil.com',
  '\\\\evil.com',
  '/\\/evil.com',
  'https://evil.com',
  'http:evil.com',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,hi',
  'evil.com',
  '%2F%2Fevil.com',
  '/%2F%2Fevil.com',
  '/%2f/evil.com',
  '/%5Cevil.com',
  '/%5C%5Cevil.com',
  '/.//evil.com',
  '/..//evil.com',
  '/./%2F/evil.com',
  '/\t/evil.com',
  '/\n/evil.com',
  '/ /evil.com',
  ' //evil.com',
  '/\u3000/evil.com',
  '/\u0000/evil.com',
  '/%00',
  '/%E0%A4%A',
  '\u2028//evil.com',
  '',
  'x'.repeat(10),
];

describe('the return path after sign-in', () => {
  it.each(OPEN_REDIRECTS)('drops %j', (value) => {
    expect(safeReturnPath(value)).toBeNull();
  });

  it.each([null, undefined, 42, ['/clients/all'], { path: '/' }])('drops a non-string %j', (value) => {
    expect(safeReturnPath(value)).toBeNull();
  });

  it('drops the sign-in pages and the API, in any case, and anything too long', () => {
    for (const value of [
      '/login',
      '/login?next=/x',
      '/LOGOUT',
      '/logout/',
      '/callback?code=1',
      '/api/stats/v1',
      '/API/isAuthenticated',
      '/1/indexes/*/queries',
    ]) {
      expect(safeReturnPath(value), value).toBeNull();
    }
    expect(safeReturnPath(`/client/${'1'.repeat(2100)}`)).toBeNull();
  });

  it('keeps a console path with its query and fragment, percent-encoded', () => {
    expect(safeReturnPath('/client/42?search=customers')).toBe('/client/42?search=customers');
    expect(safeReturnPath('/clients/all?filter=%7B%22q%22%3A%22ann%22%7D#top')).toBe('/clients/all?filter=%7B%22q%22%3A%22ann%22%7D#top');
    expect(safeReturnPath('/')).toBe('/');
    expect(safeReturnPath('/videos/../audit')).toBe('/audit');
    expect(safeReturnPath('/clients/Zoë')).toBe('/clients/Zo%C3%AB');
    expect(safeReturnPath('/loginx')).toBe('/loginx');
  });

  it('keeps only paths under the server prefix when there is one', () => {
    expect(safeReturnPath('/studio/client/42', '/studio')).toBe('/studio/client/42');
    expect(safeReturnPath('/studio', '/studio')).toBe('/studio');
    expect(safeReturnPath('/studioevil/x', '/studio')).toBeNull();
    expect(safeReturnPath('/client/42', '/studio')).toBeNull();
    expect(safeReturnPath('/studio/login', '/studio')).toBeNull();
    expect(safeReturnPath('/studio/api/stats/v1', '/studio')).toBeNull();
  });
});

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const hiddenNext = (html: string) => /<input type="hidden" name="next" value="([^"]*)">/.exec(html)?.[1] ?? null;

describe.each(testDatabases())('coming back to a deep link after a password sign-in on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database);
    await upsertStaffUser(app.database, { email: STAFF.email, password: STAFF.password, role: 'owner' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('carries the page in the login form and goes back to it after signing in', async () => {
    const page = await app.inject({ method: 'GET', url: `/login?next=${encodeURIComponent('/client/42?search=customers')}` });
    expect(page.statusCode).toBe(200);
    expect(hiddenNext(page.body)).toBe('/client/42?search=customers');
    const response = await app.inject({ method: 'POST', url: '/login', ...form({ ...STAFF, next: '/client/42?search=customers' }) });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/client/42?search=customers');
  });

  it('keeps the page through a wrong password, escaped in the form', async () => {
    const next = '/clients/all?q="><script>alert(1)</script>';
    const wrong = await app.inject({ method: 'POST', url: '/login', ...form({ email: STAFF.email, password: 'wrong-one', next }) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('<script>alert(1)');
    expect(hiddenNext(wrong.body)).toBe('/clients/all?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E');
  });

  it.each(OPEN_REDIRECTS)('lands on the console home, never elsewhere, for next=%j', async (next) => {
    // A NUL is refused before any route sees it (400); everything else signs in and lands home.
    const refused = next.includes('\u0000');
    const page = await app.inject({ method: 'GET', url: `/login?next=${encodeURIComponent(next)}` });
    expect(page.statusCode).toBe(refused ? 400 : 200);
    expect(hiddenNext(page.body)).toBeNull();
    const response = await app.inject({ method: 'POST', url: '/login', ...form({ ...STAFF, next }) });
    expect(response.statusCode).toBe(refused ? 400 : 303);
    expect(response.headers.location).toBe(refused ? undefined : '/');
  });

  it('lands on the home when next is sent twice, or raw in the query of the form post', async () => {
    const twice = await app.inject({
      method: 'POST',
      url: '/login',
      payload: `email=${encodeURIComponent(STAFF.email)}&password=${encodeURIComponent(STAFF.password)}&next=/audit&next=//evil.com`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([303, 400]).toContain(twice.statusCode);
    if (twice.statusCode === 303) expect(twice.headers.location).toBe('/');
    const inQuery = await app.inject({ method: 'POST', url: '/login?next=//evil.com', ...form(STAFF) });
    expect(inQuery.headers.location).toBe('/');
  });
});

describe.each(testDatabases())('coming back to a deep link after single sign-on on $name', ({ open }) => {
  const PUBLIC_URL = 'http://console.studio.test';
  const host = new URL(PUBLIC_URL).host;
  const ada = { sub: 'ada', email: 'ada@studio.test', email_verified: true, nickname: 'Ada', picture: 'https://pictures.example/ada.png', name: 'Ada' };
  let database: Database;
  let app: FastifyInstance;
  let idp: IdentityProvider;

  beforeAll(async () => {
    idp = await startIdentityProvider({ redirectUri: `${PUBLIC_URL}/callback`, accounts: [ada] });
    database = await open();
    app = await createTestApp(database, {
      env: { PUBLIC_URL, OIDC_ISSUER_URL: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_ALLOWED_DOMAINS: 'studio.test' },
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await idp?.close();
  });

  async function signInFrom(next: string) {
    const start = await app.inject({ method: 'GET', url: `/login?next=${encodeURIComponent(next)}`, headers: { host } });
    expect(start.statusCode).toBe(302);
    const authorizationUrl = start.headers.location as string;
    // The provider is never told where the browser comes back to.
    expect(authorizationUrl).not.toContain(encodeURIComponent(next));
    const transaction = start.cookies.find((c) => c.name === 'studio_oidc')!.value;
    const callbackUrl = await idp.signIn(authorizationUrl, ada.sub);
    return app.inject({ method: 'GET', url: `${callbackUrl.pathname}${callbackUrl.search}`, headers: { host }, cookies: { studio_oidc: transaction } });
  }

  it('goes back to the page after the provider signed the staff member in', async () => {
    const response = await signInFrom('/client/42?search=customers');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/client/42?search=customers');
    expect(response.cookies.find((c) => c.name === 'studio_session' && c.value)).toBeTruthy();
  });

  it.each(['//evil.com', '/\\evil.com', 'https://evil.com', '/%2F%2Fevil.com', '/.//evil.com'])('lands on the console home for next=%j', async (next) => {
    const response = await signInFrom(next);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/');
  });
});
