import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { upsertStaffUser, ensureStaffAccount } from '../../server/src/staff/accounts';
import { IDLE_TIMEOUT_MS, ABSOLUTE_TIMEOUT_MS } from '../../server/src/auth/sessions';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, STAFF, testClock } from '../support/server';

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

describe.each(testDatabases())('staff sign-in on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock();

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    await upsertStaffUser(app.database, { email: STAFF.email, password: STAFF.password, nickname: 'Coach', role: 'owner' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('serves the login page with Email, Password and Sign in', async () => {
    const response = await app.inject({ method: 'GET', url: '/login' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('Email');
    expect(response.body).toContain('Password');
    expect(response.body).toContain('Sign in');
  });

  it('signs in with the right password: 303 to the console and an HttpOnly SameSite=Lax cookie', async () => {
    const response = await app.inject({ method: 'POST', url: '/login', ...form(STAFF) });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/');
    const cookie = response.cookies.find((c) => c.name === 'studio_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.secure).toBeFalsy();
    const me = await app.inject({ method: 'GET', url: '/api/isAuthenticated', cookies: { studio_session: cookie!.value } });
    expect(me.json()).toEqual({
      isAuthenticated: true,
      user: {
        email: STAFF.email,
        nickname: 'Coach',
        picture: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
        role: 'owner',
        permissions: [
          'clients.read',
          'clients.push',
          'clients.notes',
          'segments.edit',
          'clients.override',
          'messaging.edit',
          'videos.edit',
          'mindbody.import',
          'audit.read',
          'dashboard.read',
          'staff.manage',
          'clients.erase',
          'clients.looks',
          'revenue.read',
          'signed_in',
        ],
      },
    });
  });

  it.each([
    ['a wrong password', { email: STAFF.email, password: 'nope-nope' }],
    ['an unknown e-mail', { email: 'stranger@studio.test', password: STAFF.password }],
    ['an empty form', { email: '', password: '' }],
  ])('refuses %s with 401, the same message and no cookie', async (_, fields) => {
    const response = await app.inject({ method: 'POST', url: '/login', ...form(fields) });
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('Invalid email or password');
    expect(response.cookies.find((c) => c.name === 'studio_session')).toBeUndefined();
  });

  it('is case-insensitive about the e-mail', async () => {
    const response = await app.inject({ method: 'POST', url: '/login', ...form({ ...STAFF, email: STAFF.email.toUpperCase() }) });
    expect(response.statusCode).toBe(303);
  });

  it('answers isAuthenticated false with a null user when signed out', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/isAuthenticated' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ isAuthenticated: false, user: null });
  });

  it('answers 401 JSON on every other /api route when signed out, and 404 without data to an unknown one', async () => {
    for (const url of ['/api/client/v1/videos', '/api/stats/v1', '/api/docs/json']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json().message).toMatch(/sign in/i);
    }
    const unknown = await app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'No such route: GET /api/does-not-exist' });
    const post = await app.inject({ method: 'POST', url: '/api/client/v1/messaging/add-new', payload: {} });
    expect(post.statusCode).toBe(401);
  });

  it('issues a fresh session id at sign-in and destroys the one the browser brought', async () => {
    const first = await signIn(app);
    const response = await app.inject({ method: 'POST', url: '/login', headers: { ...form(STAFF).headers, cookie: first }, payload: form(STAFF).payload });
    const second = response.cookies.find((c) => c.name === 'studio_session')!.value;
    expect(`studio_session=${second}`).not.toBe(first);
    const old = await app.inject({ method: 'GET', url: '/api/isAuthenticated', headers: { cookie: first } });
    expect(old.json().isAuthenticated).toBe(false);
    const fresh = await app.inject({ method: 'GET', url: '/api/isAuthenticated', cookies: { studio_session: second } });
    expect(fresh.json().isAuthenticated).toBe(true);
  });

  it('logs out: the session is destroyed server-side and the browser goes to /login', async () => {
    const cookie = await signIn(app);
    const response = await app.inject({ method: 'GET', url: '/logout', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login');
    const after = await app.inject({ method: 'GET', url: '/api/isAuthenticated', headers: { cookie } });
    expect(after.json().isAuthenticated).toBe(false);
  });

  it('ends a session after 30 minutes idle, but not while it is used', async () => {
    clock.set(new Date('2026-11-22T12:00:00Z'));
    const cookie = await signIn(app);
    for (let i = 0; i < 3; i++) {
      clock.advance(IDLE_TIMEOUT_MS - 60_000);
      const alive = await app.inject({ method: 'GET', url: '/api/isAuthenticated', headers: { cookie } });
      expect(alive.json().isAuthenticated).toBe(true);
    }
    clock.advance(IDLE_TIMEOUT_MS + 1000);
    const idle = await app.inject({ method: 'GET', url: '/api/isAuthenticated', headers: { cookie } });
    expect(idle.json().isAuthenticated).toBe(false);
  });

  it('ends a session 12 hours after sign-in however active', async () => {
    clock.set(new Date('2026-11-22T12:00:00Z'));
    const cookie = await signIn(app);
    const steps = Math.ceil(ABSOLUTE_TIMEOUT_MS / (20 * 60_000));
    let last = true;
    for (let i = 0; i < steps; i++) {
      clock.advance(20 * 60_000);
      last = (await app.inject({ method: 'GET', url: '/api/isAuthenticated', headers: { cookie } })).json().isAuthenticated;
    }
    expect(last).toBe(false);
  });

  it('survives an app restart on the same database (sessions live in the database)', async () => {
    clock.set(new Date('2026-11-22T12:00:00Z'));
    const cookie = await signIn(app);
    const second = await createTestApp(database, { clock });
    const response = await second.inject({ method: 'GET', url: '/api/isAuthenticated', headers: { cookie } });
    expect(response.json().isAuthenticated).toBe(true);
    await second.close();
  });

  it('creates admin@localhost with a random password, to be printed once, only when no staff exists', async () => {
    // This database has staff already: nothing is created and nothing is to be printed.
    expect(await ensureStaffAccount(app.database, {})).toBeNull();

    const empty = await open();
    const fresh = await createTestApp(empty, { clock });
    try {
      const created = await ensureStaffAccount(fresh.database, {});
      expect(created).toEqual({ email: 'admin@localhost', generatedPassword: expect.stringMatching(/^\S{12,}$/) });
      const response = await fresh.inject({ method: 'POST', url: '/login', ...form({ email: 'admin@localhost', password: created!.generatedPassword! }) });
      expect(response.statusCode).toBe(303);
      // The next start finds that account: no second password is generated or printed.
      expect(await ensureStaffAccount(fresh.database, {})).toBeNull();
    } finally {
      await fresh.close();
      await empty.close();
    }
  });

  it('creates the STAFF_EMAIL account at start, and sets its password from STAFF_PASSWORD on every start', async () => {
    const signInAs = (password: string) =>
      app.inject({ method: 'POST', url: '/login', ...form({ email: 'owner@studio.test', password }) }).then((response) => response.statusCode);

    expect(await ensureStaffAccount(app.database, { STAFF_EMAIL: 'Owner@Studio.test', STAFF_PASSWORD: 'owner-pass-1' })).toEqual({
      email: 'owner@studio.test',
    });
    expect(await signInAs('owner-pass-1')).toBe(303);

    await ensureStaffAccount(app.database, { STAFF_EMAIL: 'owner@studio.test', STAFF_PASSWORD: 'owner-pass-2' });
    expect(await signInAs('owner-pass-1')).toBe(401);
    expect(await signInAs('owner-pass-2')).toBe(303);
  });

  it('answers JSON errors without internals, and 404 JSON for unknown non-page paths', async () => {
    const response = await app.inject({ method: 'GET', url: '/nope.json' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: expect.stringContaining('No such route') });
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toEqual({ status: 'ok' });
  });
});

describe('SERVER_PREFIX', () => {
  it('moves every API path and /login, /logout under the prefix', async () => {
    const database = await testDatabases()[0]!.open();
    const app = await createTestApp(database, { env: { SERVER_PREFIX: '/studio' } });
    try {
      expect((await app.inject({ method: 'GET', url: '/studio/login' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/studio/api/isAuthenticated' })).json()).toEqual({ isAuthenticated: false, user: null });
      expect((await app.inject({ method: 'GET', url: '/studio/api/client/v1/videos' })).statusCode).toBe(401);
      const cookie = await signIn(app);
      const logout = await app.inject({ method: 'GET', url: '/studio/logout', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
      expect(logout.headers.location).toBe('/studio/login');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
