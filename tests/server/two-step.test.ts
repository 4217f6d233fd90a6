import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { upsertStaffUser } from '../../server/src/staff/accounts';
import { testDatabases } from '../support/databases';
import { createTestApp } from '../support/server';
import { totpCode } from '../support/totp';
import { cookieOf, twoStepSteps } from '../support/twoStepSteps';

const START = new Date('2026-11-22T12:00:10Z');
const MINUTE = 60_000;

/** Two-step sign-in with an authenticator app and recovery codes: set-up, the second step, and what attackers send. */
describe.each(testDatabases())('two-step sign-in on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const { clock, freshAddress, passwordStep, secondStep, signInWithPassword, api, withTwoStep } = twoStepSteps(() => app, START);

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
    await upsertStaffUser(app.database, { ...who, role: 'front_desk' });
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
});
