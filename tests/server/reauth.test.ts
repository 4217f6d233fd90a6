import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { upsertStaffUser } from '../../server/src/staff/accounts';
import { testDatabases } from '../support/databases';
import { createTestApp } from '../support/server';
import { totpCode } from '../support/totp';
import { cookieOf, form, twoStepSteps } from '../support/twoStepSteps';
import { loadConfig } from '../../server/src/config';

const START = new Date('2026-11-22T12:00:10Z');
const MINUTE = 60_000;

/** Re-authentication before sensitive actions, the owner's rule, and the sign-in history. */
describe.each(testDatabases())("re-authentication, the owner's rule and sign-in history on $name", ({ open }) => {
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
    await upsertStaffUser(app.database, { ...desk, role: 'front_desk' });
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
      await upsertStaffUser(app.database, { ...desk, role: 'front_desk' });

      // An owner without two-step cannot require it of others.
      const plainOwner = { email: 'rule-plain-owner@studio.test', password: 'a long enough password' };
      await upsertStaffUser(app.database, { ...plainOwner, role: 'owner' });
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
      await upsertStaffUser(app.database, { ...who, role: 'owner' });
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
          'POST /api/admin/v1/clients/:id/erase',
        ]),
      );
    });
  });
});
