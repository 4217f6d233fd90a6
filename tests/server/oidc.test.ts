import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { startIdentityProvider, type IdentityAccount, type IdentityProvider } from '../support/identityProvider';
import { createTestApp } from '../support/server';

const PUBLIC_URL = 'http://console.studio.test';
/** With PUBLIC_URL set the server answers only for its own name. */
const CONSOLE_HOST = new URL(PUBLIC_URL).host;

const account = (sub: string, email: string, extra: Partial<IdentityAccount> = {}): IdentityAccount => ({
  sub,
  email,
  email_verified: true,
  nickname: `${sub} nick`,
  picture: `https://pictures.example/${sub}.png`,
  name: `${sub} Full Name`,
  ...extra,
});

// Allowed one by one: Ada. Allowed as a domain: everyone at studio.test. Mallory shares Ada's domain only.
const ada = account('ada', 'Ada.Lovelace@Partner.test');
const grace = account('grace', 'grace@studio.test');
const mallory = account('mallory', 'mallory@partner.test');
const unverified = account('eve', 'eve@studio.test', { email_verified: false });
// A provider that lets people type any address and says nothing about verifying it.
const disguised = account('trudy', 'trudy@studio.test@partner.test', { email_verified: undefined });

const REFUSED_EMAIL = 'is not allowed to use this console. Ask an administrator to add it.';
const LOST_TRANSACTION = 'Your sign-in took too long or was started in another browser. Please sign in again.';
const FAILED = 'Sign-in with your identity provider failed. Please try again.';

describe.each(testDatabases())('OpenID Connect sign-in on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let idp: IdentityProvider;

  beforeAll(async () => {
    idp = await startIdentityProvider({ redirectUri: `${PUBLIC_URL}/callback`, accounts: [ada, grace, mallory, unverified, disguised] });
    database = await open();
    app = await createTestApp(database, {
      env: {
        PUBLIC_URL,
        OIDC_ISSUER_URL: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_ALLOWED_EMAILS: 'ada.lovelace@partner.test',
        OIDC_ALLOWED_DOMAINS: 'studio.test',
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await idp?.close();
  });

  /** GET /login on the console: the redirect to the provider and the signed transaction cookie. */
  async function startLogin() {
    const response = await app.inject({ method: 'GET', url: '/login', headers: { host: CONSOLE_HOST } });
    expect(response.statusCode).toBe(302);
    const transaction = response.cookies.find((c) => c.name === 'studio_oidc');
    expect(transaction?.httpOnly).toBe(true);
    return { authorizationUrl: response.headers.location as string, transactionCookie: transaction!.value };
  }

  async function callback(callbackUrl: URL, transactionCookie?: string) {
    expect(callbackUrl.origin).toBe(PUBLIC_URL);
    return app.inject({
      method: 'GET',
      url: `${callbackUrl.pathname}${callbackUrl.search}`,
      headers: { host: callbackUrl.host },
      cookies: transactionCookie === undefined ? {} : { studio_oidc: transactionCookie },
    });
  }

  async function signInAs(who: IdentityAccount) {
    const { authorizationUrl, transactionCookie } = await startLogin();
    return callback(await idp.signIn(authorizationUrl, who.sub), transactionCookie);
  }

  const sessionCookie = (response: { cookies: { name: string; value: string; httpOnly?: boolean; sameSite?: string }[] }) =>
    response.cookies.find((c) => c.name === 'studio_session' && c.value !== '');

  async function whoIs(session: string) {
    const response = await app.inject({ method: 'GET', url: '/api/isAuthenticated', headers: { host: CONSOLE_HOST }, cookies: { studio_session: session } });
    return response.json();
  }

  it('redirects GET /login to the provider with PKCE (S256), state and nonce, fresh for every attempt', async () => {
    const first = new URL((await startLogin()).authorizationUrl);
    const second = new URL((await startLogin()).authorizationUrl);
    expect(`${first.origin}${first.pathname}`).toBe(`${idp.issuer}/auth`);
    const params = first.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(idp.clientId);
    expect(params.get('redirect_uri')).toBe(`${PUBLIC_URL}/callback`);
    expect(params.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    for (const name of ['code_challenge', 'state', 'nonce']) {
      expect(second.searchParams.get(name), name).not.toBe(params.get(name));
    }
  });

  it('signs in an allowed e-mail: 303 to the console, a session, and the profile from the claims', async () => {
    const response = await signInAs(ada);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/');
    const session = sessionCookie(response);
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    // The one-time transaction cookie is spent.
    expect(response.cookies.find((c) => c.name === 'studio_oidc')?.value).toBe('');
    expect(await whoIs(session!.value)).toEqual({
      isAuthenticated: true,
      // No OIDC_ROLE_CLAIM: a new account gets OIDC_DEFAULT_ROLE (front_desk).
      user: expect.objectContaining({
        email: 'ada.lovelace@partner.test',
        nickname: 'ada nick',
        picture: 'https://pictures.example/ada.png',
        role: 'front_desk',
      }),
    });
    // The provider saw the PKCE challenge the console sent; it would have refused the code exchange otherwise.
    expect(idp.authorizationRequests.at(-1)?.searchParams.get('code_challenge_method')).toBe('S256');
  });

  it('signs in anyone at an allowed domain', async () => {
    const response = await signInAs(grace);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/');
    expect(await whoIs(sessionCookie(response)!.value)).toEqual({
      isAuthenticated: true,
      user: expect.objectContaining({ email: 'grace@studio.test', nickname: 'grace nick', picture: 'https://pictures.example/grace.png' }),
    });
  });

  it('refuses an e-mail in neither allow-list with 403, says why, and starts no session', async () => {
    const response = await signInAs(mallory);
    expect(response.statusCode).toBe(403);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain(`mallory@partner.test ${REFUSED_EMAIL}`);
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('refuses an allowed domain when the provider has not verified the address', async () => {
    const response = await signInAs(unverified);
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('The e-mail address eve@studio.test is not verified at your identity provider.');
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('judges the domain by what follows the last @', async () => {
    const response = await signInAs(disguised);
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain(`trudy@studio.test@partner.test ${REFUSED_EMAIL}`);
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('answers 400 and no session when the person cancels at the provider', async () => {
    const { authorizationUrl, transactionCookie } = await startLogin();
    const callbackUrl = await idp.signIn(authorizationUrl, null);
    expect(callbackUrl.searchParams.get('error')).toBe('access_denied');
    const response = await callback(callbackUrl, transactionCookie);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(FAILED);
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('answers 400 and no session when the transaction cookie is missing', async () => {
    const { authorizationUrl } = await startLogin();
    const response = await callback(await idp.signIn(authorizationUrl, ada.sub));
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(LOST_TRANSACTION);
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('answers 400 and no session when the transaction cookie was tampered with', async () => {
    const { authorizationUrl, transactionCookie } = await startLogin();
    const signatureAt = transactionCookie.lastIndexOf('.');
    const transaction = JSON.parse(transactionCookie.slice(0, signatureAt));
    const forged = `${JSON.stringify({ ...transaction, codeVerifier: 'x'.repeat(43) })}${transactionCookie.slice(signatureAt)}`;
    const response = await callback(await idp.signIn(authorizationUrl, ada.sub), forged);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(LOST_TRANSACTION);
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('answers 400 and no session when the state does not match the transaction', async () => {
    const { authorizationUrl, transactionCookie } = await startLogin();
    const callbackUrl = await idp.signIn(authorizationUrl, ada.sub);
    callbackUrl.searchParams.set('state', 'a-state-this-browser-never-sent');
    const response = await callback(callbackUrl, transactionCookie);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(FAILED);
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('answers 400 and no session when the callback belongs to a sign-in started in another tab', async () => {
    const mine = await startLogin();
    const other = await startLogin();
    const response = await callback(await idp.signIn(other.authorizationUrl, ada.sub), mine.transactionCookie);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(FAILED);
    expect(sessionCookie(response)).toBeUndefined();
  });
});
