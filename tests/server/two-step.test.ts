import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { upsertStaffUser } from '../../server/src/auth/staff';
import { testDatabases } from '../support/databases';
import { createTestApp, testClock } from '../support/server';
import { totpCode } from '../support/totp';
import { loadConfig } from '../../server/src/config';

const START = new Date('2026-11-22T12:00:10Z');
const MINUTE = 60_000;
const form = (fields: Record<string, string>, cookie?: string) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
});
const cookieOf = (response: { cookies: { name: string; value: string }[] }, name: string) => {
  const found = response.cookies.find((c) => c.name === name && c.value !== '');
  return found ? `${name}=${found.value}` : undefined;
};

/** Two-step sign-in with an authenticator app and recovery codes, and re-authentication before sensitive actions. */
describe.each(testDatabases())('two-step sign-in on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock(START);
  let ipCounter = 10;
  /** Each test signs in from its own address, so the per-address limit of one does not spill into the next. */
  const freshAddress = () => `198.51.100.${ipCounter++}`;

  async function passwordStep(who: { email: string; password: string }, remoteAddress: string) {
    return app.inject({ method: 'POST', url: '/login', remoteAddress, ...form(who) });
  }
  async function secondStep(challenge: string | undefined, code: string, remoteAddress: string) {
    return app.inject({ method: 'POST', url: '/login/two-step', remoteAddress, ...form({ code }, challenge) });
  }
  async function signInWithPassword(who: { email: string; password: string }, remoteAddress = freshAddress()) {
    const response = await passwordStep(who, remoteAddress);
    return cookieOf(response, 'studio_session')!;
  }
  const api = (method: string, url: string, cookie: string, payload?: object) =>
    app.inject({ method: method as 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });

  /** A new owner with two-step on; its secret and recovery codes. */
  async function withTwoStep(email: string) {
    const who = { email, password: 'a long enough password' };
    await upsertStaffUser(app.db, { ...who, role: 'owner' });
    const cookie = await signInWithPassword(who);
    const setup = await api('POST', '/api/auth/two-step/totp', cookie);
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json() as { secret: string };
    const confirmed = await api('POST', '/api/auth/two-step/totp/confirm', cookie, { code: totpCode(secret, clock.now()) });
    expect(confirmed.statusCode).toBe(200);
    // The set-up used this step's code: the next sign-in starts two steps later (the one before is then unused).
    clock.advance(60_000);
    return { who, secret, cookie, recovery: (confirmed.json() as { recovery_codes: string[] }).recovery_codes };
  }

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('sets up an authenticator: a secret and its otpauth URI with a QR code, confirmed by a code; ten different recovery codes', async () => {
    const who = { email: 'setup@studio.test', password: 'a long enough password' };
    await upsertStaffUser(app.db, { ...who, role: 'front_desk' });
    const cookie = await signInWithPassword(who);
    const setup = await api('POST', '/api/auth/two-step/totp', cookie);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_uri, qr_svg } = setup.json() as { secret: string; otpauth_uri: string; qr_svg: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauth_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Studio Console:setup@studio.test');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Studio Console');
    expect(qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const wrong = await api('POST', '/api/auth/two-step/totp/confirm', cookie, { code: totpCode(secret, clock.now(), 5) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].path).toBe('body.code');
    expect((await api('GET', '/api/auth/two-step', cookie)).json()).toMatchObject({ enabled: false });

    const confirmed = await api('POST', '/api/auth/two-step/totp/confirm', cookie, { code: totpCode(secret, clock.now()) });
    expect(confirmed.statusCode).toBe(200);
    const codes = (confirmed.json() as { recovery_codes: string[] }).recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await api('GET', '/api/auth/two-step', cookie)).json()).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    // Only hashes are stored.
    const stored = await database.query<{ code_hash: string }>('SELECT code_hash FROM staff_recovery_codes');
    for (const row of stored) expect(codes).not.toContain(row.code_hash);
    // A second set-up while on is refused.
    expect((await api('POST', '/api/auth/two-step/totp', cookie)).statusCode).toBe(409);
    const audit = await database.query<{ action: string }>("SELECT action FROM audit_log WHERE action = 'auth.two_step_enable' AND staff_email = $1", [
      who.email,
    ]);
    expect(audit).toHaveLength(1);
  });

  it('a right password without a code opens no session; with a code it does', async () => {
    const { who, secret } = await withTwoStep('code@studio.test');
    const address = freshAddress();
    const first = await passwordStep(who, address);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/login/two-step');
    expect(cookieOf(first, 'studio_session')).toBeUndefined();
    const challenge = cookieOf(first, 'studio_two_step')!;
    expect(challenge).toBeDefined();
    // The half-done sign-in is not a session.
    expect((await app.inject({ method: 'GET', url: '/api/admin/v1/sessions', headers: { cookie: challenge } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/isAuthenticated', headers: { cookie: challenge } })).json()).toMatchObject({ isAuthenticated: false });
    const page = await app.inject({ method: 'GET', url: '/login/two-step', headers: { cookie: challenge } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="code"');

    const second = await secondStep(challenge, totpCode(secret, clock.now()), address);
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe('/');
    const session = cookieOf(second, 'studio_session')!;
    expect((await app.inject({ method: 'GET', url: '/api/isAuthenticated', headers: { cookie: session } })).json()).toMatchObject({ isAuthenticated: true });
    const [entry] = await database.query<{ after: Record<string, unknown> }>(
      "SELECT after FROM audit_log WHERE action = 'auth.sign_in' AND staff_email = $1 ORDER BY id DESC LIMIT 1",
      [who.email],
    );
    expect(entry!.after).toMatchObject({ method: 'password', second_step: 'totp' });
    // The challenge was used up: the same cookie cannot sign in again.
    const again = await secondStep(challenge, totpCode(secret, clock.now(), 1), address);
    expect(again.statusCode).toBe(401);
    expect(cookieOf(again, 'studio_session')).toBeUndefined();
  });

  it('accepts a code one step early or late, refuses two steps away, and accepts a code only once', async () => {
    const { who, secret } = await withTwoStep('drift@studio.test');
    const attempt = async (code: string) => {
      const address = freshAddress();
      const challenge = cookieOf(await passwordStep(who, address), 'studio_two_step');
      return secondStep(challenge, code, address);
    };
    expect((await attempt(totpCode(secret, clock.now(), -2))).statusCode).toBe(401);
    expect((await attempt(totpCode(secret, clock.now(), 2))).statusCode).toBe(401);
    expect((await attempt(totpCode(secret, clock.now(), -1))).statusCode).toBe(303);
    const now = totpCode(secret, clock.now());
    expect((await attempt(now)).statusCode).toBe(303);
    const reused = await attempt(now);
    expect(reused.statusCode).toBe(401);
    expect(reused.body).toContain('already used');
    // An older code after a newer one was accepted is refused too.
    expect((await attempt(totpCode(secret, clock.now(), 1))).statusCode).toBe(303);
    expect((await attempt(totpCode(secret, clock.now()))).statusCode).toBe(401);
    clock.advance(60_000);
  });

  it('a recovery code works once, in any case and spacing', async () => {
    const { who, recovery } = await withTwoStep('recovery@studio.test');
    const address = freshAddress();
    const challenge = cookieOf(await passwordStep(who, address), 'studio_two_step');
    const used = await secondStep(challenge, ` ${recovery[3]!.toUpperCase().replace('-', ' ')} `, address);
    expect(used.statusCode).toBe(303);
    const session = cookieOf(used, 'studio_session')!;
    expect((await api('GET', '/api/auth/two-step', session)).json()).toMatchObject({ recovery_codes_left: 9 });
    const again = await secondStep(cookieOf(await passwordStep(who, address), 'studio_two_step'), recovery[3]!, address);
    expect(again.statusCode).toBe(401);
    expect(cookieOf(again, 'studio_session')).toBeUndefined();
  });

  it('refuses a second step without the first, with a made-up challenge, and after the challenge expired', async () => {
    const { who, secret } = await withTwoStep('nofirst@studio.test');
    const address = freshAddress();
    for (const cookie of [undefined, 'studio_two_step=made-up', `studio_two_step=${'x'.repeat(5000)}`]) {
      const response = await secondStep(cookie, totpCode(secret, clock.now()), address);
      expect(response.statusCode).toBe(401);
      expect(response.body).toContain('sign in with your password again');
      expect(cookieOf(response, 'studio_session')).toBeUndefined();
    }
    const audited = await database.query(
      "SELECT 1 FROM audit_log WHERE action = 'auth.sign_in_failed' AND after->>'reason' = 'second step without a password'",
    );
    expect(audited.length).toBeGreaterThanOrEqual(3);
    const challenge = cookieOf(await passwordStep(who, address), 'studio_two_step');
    clock.advance(6 * MINUTE);
    const late = await secondStep(challenge, totpCode(secret, clock.now()), address);
    expect(late.statusCode).toBe(401);
    expect(cookieOf(late, 'studio_session')).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['letters', 'abcdef'],
    ['too short', '12345'],
    ['too long', '1234567'],
    ['oversized', '1'.repeat(50_000)],
    ['NUL', '12\u000034'],
    ['odd Unicode', '１２３４５６'],
  ])('refuses a %s code with 401 and the sign-in page, audited, never a session', async (_, code) => {
    const { who } = await withTwoStep(`malformed-${Math.random().toString(36).slice(2)}@studio.test`);
    const address = freshAddress();
    const challenge = cookieOf(await passwordStep(who, address), 'studio_two_step');
    const response = await secondStep(challenge, code, address);
    expect([400, 401]).toContain(response.statusCode);
    expect(cookieOf(response, 'studio_session')).toBeUndefined();
  });

  it('five wrong codes end the half-done sign-in; the password is asked again', async () => {
    const { who, secret } = await withTwoStep('fivewrong@studio.test');
    const address = freshAddress();
    const challenge = cookieOf(await passwordStep(who, address), 'studio_two_step');
    for (let i = 0; i < 5; i++) expect((await secondStep(challenge, '000000', address)).statusCode).toBe(401);
    const right = await secondStep(challenge, totpCode(secret, clock.now()), address);
    expect(right.statusCode).toBe(401);
    expect(cookieOf(right, 'studio_session')).toBeUndefined();
  });

  it('counts codes against the sign-in limit: after 10 failures from an address, 429 with Retry-After, even for the right code', async () => {
    const { who, secret } = await withTwoStep('throttled@studio.test');
    const address = freshAddress();
    let challenge = cookieOf(await passwordStep(who, address), 'studio_two_step');
    // 1 password attempt (kept until success) + wrong codes, the challenge renewed every 4.
    let statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      if (i > 0 && i % 4 === 0) {
        const renewed = await passwordStep(who, address);
        if (renewed.statusCode === 303) challenge = cookieOf(renewed, 'studio_two_step');
        statuses.push(renewed.statusCode);
      }
      statuses.push((await secondStep(challenge, '000000', address)).statusCode);
    }
    expect(statuses).toContain(429);
    statuses = [];
    const right = await secondStep(challenge, totpCode(secret, clock.now()), address);
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(cookieOf(right, 'studio_session')).toBeUndefined();
  });

  it('of a parallel burst of the same right code, exactly one signs in', async () => {
    const { who, secret } = await withTwoStep('burst@studio.test');
    const code = totpCode(secret, clock.now());
    const attempts = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const address = `203.0.113.${100 + i}`;
        const challenge = cookieOf(await passwordStep(who, address), 'studio_two_step');
        return secondStep(challenge, code, address);
      }),
    );
    const statuses = attempts.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 303)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(7);
    clock.advance(30_000);
  });

  it('turns two-step off with a code (not with a wrong password); the password alone signs in again', async () => {
    const { who, secret } = await withTwoStep('off@studio.test');
    const address = freshAddress();
    const session = cookieOf(
      await secondStep(cookieOf(await passwordStep(who, address), 'studio_two_step'), totpCode(secret, clock.now()), address),
      'studio_session',
    )!;
    clock.advance(30_000);
    const wrong = await api('POST', '/api/auth/two-step/disable', session, { password: 'not it at all' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].path).toBe('body.password');
    const off = await api('POST', '/api/auth/two-step/disable', session, { code: totpCode(secret, clock.now()) });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ enabled: false });
    const plain = await passwordStep(who, freshAddress());
    expect(plain.statusCode).toBe(303);
    expect(plain.headers.location).toBe('/');
    expect(cookieOf(plain, 'studio_session')).toBeDefined();
    const audit = await database.query("SELECT 1 FROM audit_log WHERE action = 'auth.two_step_disable' AND staff_email = $1", [who.email]);
    expect(audit).toHaveLength(1);
  });

  it("lists an account's sign-ins and failed attempts, with address, browser and method, to the member and to owners only", async () => {
    const { who, secret } = await withTwoStep('history@studio.test');
    const address = '192.0.2.77';
    const browser = { 'user-agent': 'Mozilla/5.0 (History test)' };
    await app.inject({
      method: 'POST',
      url: '/login',
      remoteAddress: address,
      ...form({ ...who, password: 'not the password' }),
      headers: { ...form({}).headers, ...browser },
    });
    const challenge = cookieOf(await passwordStep(who, address), 'studio_two_step');
    await app.inject({
      method: 'POST',
      url: '/login/two-step',
      remoteAddress: address,
      payload: 'code=000000',
      headers: { ...form({}).headers, cookie: challenge!, ...browser },
    });
    const done = await app.inject({
      method: 'POST',
      url: '/login/two-step',
      remoteAddress: address,
      payload: `code=${totpCode(secret, clock.now())}`,
      headers: { ...form({}).headers, cookie: challenge!, ...browser },
    });
    const session = cookieOf(done, 'studio_session')!;
    const own = await api('GET', '/api/admin/v1/account/sign-ins', session);
    expect(own.statusCode).toBe(200);
    const entries = own.json() as {
      outcome: string;
      method: string | null;
      second_step: string | null;
      reason: string | null;
      ip: string;
      user_agent: string | null;
    }[];
    expect(
      entries.slice(0, 3).map(({ outcome, method, second_step, reason, ip, user_agent }) => ({ outcome, method, second_step, reason, ip, user_agent })),
    ).toEqual([
      { outcome: 'signed_in', method: 'password', second_step: 'totp', reason: null, ip: address, user_agent: 'Mozilla/5.0 (History test)' },
      { outcome: 'failed', method: 'password', second_step: null, reason: 'wrong code', ip: address, user_agent: 'Mozilla/5.0 (History test)' },
      { outcome: 'failed', method: 'password', second_step: null, reason: 'wrong password', ip: address, user_agent: 'Mozilla/5.0 (History test)' },
    ]);
    const [{ id }] = await database.query<{ id: number }>('SELECT id FROM staff_users WHERE email = $1', [who.email]);
    const desk = { email: 'history-desk@studio.test', password: 'a long enough password' };
    await upsertStaffUser(app.db, { ...desk, role: 'front_desk' });
    expect((await api('GET', `/api/admin/v1/staff/${id}/sign-ins`, await signInWithPassword(desk))).statusCode).toBe(403);
    // An owner (this member is one) sees it on the Staff screen.
    expect((await api('GET', `/api/admin/v1/staff/${id}/sign-ins`, session)).json()).toEqual(own.json());
  });

  describe("the owner's rule", () => {
    it('an owner requires two-step: an account without it gets 403 two_step_setup_required on everything but the set-up, until it sets it up', async () => {
      const { who: owner, secret } = await withTwoStep('rule-owner@studio.test');
      const address = freshAddress();
      const ownerCookie = cookieOf(
        await secondStep(cookieOf(await passwordStep(owner, address), 'studio_two_step'), totpCode(secret, clock.now()), address),
        'studio_session',
      )!;
      const desk = { email: 'rule-desk@studio.test', password: 'a long enough password' };
      await upsertStaffUser(app.db, { ...desk, role: 'front_desk' });

      // An owner without two-step cannot require it of others.
      const plainOwner = { email: 'rule-plain-owner@studio.test', password: 'a long enough password' };
      await upsertStaffUser(app.db, { ...plainOwner, role: 'owner' });
      const refused = await api('PUT', '/api/admin/v1/security-settings', await signInWithPassword(plainOwner), { require_two_step: true });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toContain('your own account first');
      expect((await api('GET', '/api/admin/v1/security-settings', ownerCookie)).json()).toEqual({ require_two_step: false });
      const on = await api('PUT', '/api/admin/v1/security-settings', ownerCookie, { require_two_step: true });
      expect(on.statusCode).toBe(200);
      const [entry] = await database.query<{ before: unknown; after: unknown; staff_email: string }>(
        "SELECT before, after, staff_email FROM audit_log WHERE action = 'auth.two_step_required'",
      );
      expect(entry).toEqual({ before: { required: false }, after: { required: true }, staff_email: owner.email });
      // A front-desk member may not change the rule.
      const deskCookie = await signInWithPassword(desk);
      const blocked = await api('GET', '/api/admin/v1/sessions', deskCookie);
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json()).toEqual({ message: expect.stringContaining('requires two-step'), two_step_setup_required: true });
      expect((await api('GET', '/api/client/v1/clients/1', deskCookie)).statusCode).toBe(403);
      expect(
        (await api('POST', '/api/admin/v1/account/password', deskCookie, { current_password: desk.password, new_password: 'another long one' })).statusCode,
      ).toBe(403);
      // The owner with two-step is not held up.
      expect((await api('GET', '/api/admin/v1/sessions', ownerCookie)).statusCode).toBe(200);

      expect((await api('GET', '/api/auth/two-step', deskCookie)).json()).toMatchObject({ enabled: false, required: true });
      const { secret: deskSecret } = (await api('POST', '/api/auth/two-step/totp', deskCookie)).json() as { secret: string };
      expect((await api('POST', '/api/auth/two-step/totp/confirm', deskCookie, { code: totpCode(deskSecret, clock.now()) })).statusCode).toBe(200);
      expect((await api('GET', '/api/admin/v1/sessions', deskCookie)).statusCode).toBe(200);
      // While required, nobody turns it off for themselves.
      clock.advance(30_000);
      const off = await api('POST', '/api/auth/two-step/disable', deskCookie, { code: totpCode(deskSecret, clock.now()) });
      expect(off.statusCode).toBe(409);

      // An owner resets the member's two-step (a lost phone): their sessions end, audited.
      const [{ id: deskId }] = await database.query<{ id: number }>('SELECT id FROM staff_users WHERE email = $1', [desk.email]);
      const reset = await api('POST', `/api/admin/v1/staff/${deskId}/reset-two-step`, ownerCookie);
      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toMatchObject({ email: desk.email, two_step: false });
      expect((await api('GET', '/api/auth/two-step', deskCookie)).statusCode).toBe(401);
      const [resetEntry] = await database.query<{ after: Record<string, unknown>; staff_email: string }>(
        "SELECT after, staff_email FROM audit_log WHERE action = 'auth.two_step_reset'",
      );
      expect(resetEntry).toEqual({ staff_email: owner.email, after: { two_step: false, email: desk.email, sessions_ended: 1 } });
      // Signed in again with the password alone, the member is sent to set-up once more.
      const again = await signInWithPassword(desk);
      expect((await api('GET', '/api/admin/v1/sessions', again)).json()).toMatchObject({ two_step_setup_required: true });

      expect((await api('PUT', '/api/admin/v1/security-settings', ownerCookie, { require_two_step: false })).statusCode).toBe(200);
      expect((await api('GET', '/api/admin/v1/sessions', again)).statusCode).toBe(200);
    });
  });

  describe('re-authentication', () => {
    it('a broadcast without a recent check is refused with reauth_required, and goes through after POST /api/auth/reauth', async () => {
      const who = { email: 'reauth@studio.test', password: 'a long enough password' };
      await upsertStaffUser(app.db, { ...who, role: 'owner' });
      const address = freshAddress();
      let cookie = await signInWithPassword(who, address);
      const broadcast = () => api('POST', '/api/admin/v1/broadcasts', cookie, { filter: { q: 'nobody-matches@reach.test' }, body: 'News' });
      // Signing in counts as a check: not refused for reauth (400: no client matches).
      expect((await broadcast()).statusCode).toBe(400);
      // 16 minutes later (the session kept alive), the check is too old.
      for (let i = 0; i < 4; i++) {
        clock.advance(4 * MINUTE);
        expect((await api('GET', '/api/auth/two-step', cookie)).statusCode).toBe(200);
      }
      const refused = await broadcast();
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: expect.stringContaining('Confirm it is you'), reauth_required: true });
      expect(await database.query("SELECT 1 FROM broadcasts WHERE body = 'News'")).toHaveLength(0);

      const wrong = await api('POST', '/api/auth/reauth', cookie, { password: 'wrong wrong wrong' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errors).toEqual([{ path: 'body.password', message: 'is not your password' }]);
      expect((await broadcast()).statusCode).toBe(403);

      const ok = await api('POST', '/api/auth/reauth', cookie, { password: who.password });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ reauthenticated: true, valid_until: new Date(clock.now().getTime() + 15 * MINUTE).toISOString() });
      expect((await broadcast()).statusCode).toBe(400);
      const audit = await database.query<{ after: { method: string } }>("SELECT after FROM audit_log WHERE action = 'auth.reauth' AND staff_email = $1", [
        who.email,
      ]);
      expect(audit.map((row) => row.after.method)).toEqual(['password']);
      const failed = await database.query("SELECT 1 FROM audit_log WHERE action = 'auth.reauth_failed' AND staff_email = $1", [who.email]);
      expect(failed).toHaveLength(1);
      cookie = '';
    });

    it('takes a code, refuses both or neither, and refuses a reused code', async () => {
      const { who, secret } = await withTwoStep('reauth-code@studio.test');
      const address = freshAddress();
      const cookie = cookieOf(
        await secondStep(cookieOf(await passwordStep(who, address), 'studio_two_step'), totpCode(secret, clock.now()), address),
        'studio_session',
      )!;
      clock.advance(30_000);
      expect((await api('POST', '/api/auth/reauth', cookie, {})).statusCode).toBe(400);
      expect((await api('POST', '/api/auth/reauth', cookie, { password: who.password, code: '123456' })).statusCode).toBe(400);
      const code = totpCode(secret, clock.now());
      const ok = await api('POST', '/api/auth/reauth', cookie, { code });
      expect(ok.statusCode).toBe(200);
      const reused = await api('POST', '/api/auth/reauth', cookie, { code });
      expect(reused.statusCode).toBe(400);
      expect(reused.json().errors[0]).toEqual({ path: 'body.code', message: 'was already used: wait for the next one' });
    });

    it('REAUTH_MINUTES defaults to 15 and a bad value is named at boot', () => {
      expect(loadConfig({ NODE_ENV: 'test' }).REAUTH_MINUTES).toBe(15);
      expect(loadConfig({ NODE_ENV: 'test', REAUTH_MINUTES: '5' }).REAUTH_MINUTES).toBe(5);
      for (const bad of ['0', 'soon', '1.5', '100000']) expect(() => loadConfig({ NODE_ENV: 'test', REAUTH_MINUTES: bad }), bad).toThrow(/REAUTH_MINUTES/);
    });

    it('every sensitive route declares reauth', () => {
      const sensitive = app.routeTable.filter((route) => route.reauth).map((route) => `${route.method} ${route.url}`);
      expect(sensitive).toEqual(
        expect.arrayContaining([
          'POST /api/admin/v1/broadcasts',
          'POST /api/admin/v1/broadcasts/:id/send',
          'POST /api/admin/v1/bulk/push',
          'POST /api/admin/v1/bulk/override',
          'POST /api/admin/v1/staff',
          'PUT /api/admin/v1/staff/:id',
          'POST /api/admin/v1/staff/:id/reset-password',
          'POST /api/admin/v1/staff/:id/reset-two-step',
          'PUT /api/admin/v1/security-settings',
        ]),
      );
    });
  });
});
