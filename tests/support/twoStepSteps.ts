import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { upsertStaffUser } from '../../server/src/staff/accounts';
import { testClock } from './server';
import { totpCode } from './totp';

export const form = (fields: Record<string, string>, cookie?: string) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
});
export const cookieOf = (response: { cookies: { name: string; value: string }[] }, name: string) => {
  const found = response.cookies.find((c) => c.name === name && c.value !== '');
  return found ? `${name}=${found.value}` : undefined;
};

/** Signing in with two-step through the server's pages and API, on the app `app()` returns, with a clock tests move. */
export function twoStepSteps(app: () => FastifyInstance, start: Date) {
  const clock = testClock(start);
  let ipCounter = 10;
  /** Each test signs in from its own address, so the per-address limit of one does not spill into the next. */
  const freshAddress = () => `198.51.100.${ipCounter++}`;
  const passwordStep = (who: { email: string; password: string }, remoteAddress: string) =>
    app().inject({ method: 'POST', url: '/login', remoteAddress, ...form(who) });
  const secondStep = (challenge: string | undefined, code: string, remoteAddress: string) =>
    app().inject({ method: 'POST', url: '/login/two-step', remoteAddress, ...form({ code }, challenge) });
  const signInWithPassword = async (who: { email: string; password: string }, remoteAddress = freshAddress()) =>
    cookieOf(await passwordStep(who, remoteAddress), 'studio_session')!;
  const api = (method: string, url: string, cookie: string, payload?: object) =>
    app().inject({ method: method as 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });

  /** A new owner with two-step on; its secret and recovery codes. */
  async function withTwoStep(email: string) {
    const who = { email, password: 'a long enough password' };
    await upsertStaffUser(app().database, { ...who, role: 'owner' });
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

  return { clock, freshAddress, passwordStep, secondStep, signInWithPassword, api, withTwoStep };
}
