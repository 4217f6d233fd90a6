import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { idpSaysTwoStep } from '../../server/src/auth/oidcMfa';
import { testDatabases } from '../support/databases';
import { startIdentityProvider, studioPerson, type IdentityAccount, type IdentityProvider } from '../support/identityProvider';
import { createTestApp } from '../support/server';

const PUBLIC_URL = 'http://console.studio.test';
const CONSOLE_HOST = new URL(PUBLIC_URL).host;
const person = (sub: string, amr?: string[]): IdentityAccount => studioPerson(sub, amr ? { amr } : {});
const withCode = person('withcode', ['pwd', 'otp']);
const withKey = person('withkey', ['hwk']);
const passwordOnly = person('passwordonly', ['pwd']);
const silent = person('silent');

describe('what an identity provider says about a second factor', () => {
  it.each([
    [{ amr: ['pwd', 'otp'] }, true],
    [{ amr: ['mfa'] }, true],
    [{ amr: ['HWK'] }, true],
    [{ amr: ['pwd'] }, false],
    [{ amr: 'mfa' }, false],
    [{ amr: [7, null] }, false],
    [{}, false],
    [{ acr: 'http://schemas.openid.net/pape/policies/2007/06/multi-factor' }, true],
    [{ acr: 'urn:okta:loa:2fa:any' }, true],
    [{ acr: 'https://refeds.org/profile/mfa' }, true],
    [{ acr: 'aal2' }, true],
    [{ acr: 'aal1' }, false],
    [{ acr: '0' }, false],
    [{ acr: 'urn:mace:incommon:iap:silver' }, false],
  ])('%j → %s', (claims, expected) => {
    expect(idpSaysTwoStep(claims as Record<string, unknown>)).toBe(expected);
  });
});

describe.each(testDatabases())('single sign-on and two-step on $name', ({ open }) => {
  let database: Database;
  let idp: IdentityProvider;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    idp = await startIdentityProvider({ redirectUri: `${PUBLIC_URL}/callback`, accounts: [withCode, withKey, passwordOnly, silent] });
    database = await open();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.close();
    await idp?.close();
  });

  async function consoleApp(requireMfa: boolean) {
    const app = await createTestApp(database, {
      env: {
        PUBLIC_URL,
        OIDC_ISSUER_URL: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_ALLOWED_DOMAINS: 'studio.test',
        OIDC_REQUIRE_MFA: requireMfa ? 'true' : 'false',
      },
    });
    apps.push(app);
    return app;
  }

  async function signInAs(app: FastifyInstance, who: IdentityAccount) {
    const start = await app.inject({ method: 'GET', url: '/login', headers: { host: CONSOLE_HOST } });
    const transaction = start.cookies.find((c) => c.name === 'studio_oidc')!.value;
    const back = await idp.signIn(start.headers.location as string, who.sub);
    return app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { host: CONSOLE_HOST }, cookies: { studio_oidc: transaction } });
  }

  it('with OIDC_REQUIRE_MFA, signs in those whose provider says otp or hwk, and refuses a password alone or no amr, audited', async () => {
    const app = await consoleApp(true);
    for (const who of [withCode, withKey]) {
      const response = await signInAs(app, who);
      expect(response.statusCode, who.sub).toBe(303);
      expect(response.cookies.find((c) => c.name === 'studio_session')?.value).toBeTruthy();
    }
    for (const who of [passwordOnly, silent]) {
      const response = await signInAs(app, who);
      expect(response.statusCode, who.sub).toBe(403);
      expect(response.body).toContain('did not confirm a second factor');
      expect(response.cookies.find((c) => c.name === 'studio_session' && c.value)).toBeUndefined();
    }
    const refused = await database.query<{ staff_email: string }>(
      "SELECT staff_email FROM audit_log WHERE action = 'auth.sign_in_failed' AND after->>'reason' = 'identity provider did not confirm a second factor' ORDER BY id",
    );
    expect(refused.map((row) => row.staff_email)).toEqual(['passwordonly@studio.test', 'silent@studio.test']);
    const signIns = await database.query<{ staff_email: string; after: Record<string, unknown> }>(
      "SELECT staff_email, after FROM audit_log WHERE action = 'auth.sign_in' ORDER BY id",
    );
    expect(signIns.map((row) => [row.staff_email, row.after.method, row.after.second_step])).toEqual([
      ['withcode@studio.test', 'oidc', 'idp'],
      ['withkey@studio.test', 'oidc', 'idp'],
    ]);
  });

  it("counts a provider's second factor for the owner's rule: only the password-only sign-in is sent to set-up", async () => {
    const app = await consoleApp(false);
    await database.query("INSERT INTO app_settings (key, value) VALUES ('require_two_step', 'on') ON CONFLICT (key) DO UPDATE SET value = 'on'");
    const cookieOf = async (who: IdentityAccount) => {
      const response = await signInAs(app, who);
      expect(response.statusCode, who.sub).toBe(303);
      const session = response.cookies.find((c) => c.name === 'studio_session')!.value;
      return `studio_session=${session}`;
    };
    const strong = await app.inject({ method: 'GET', url: '/api/admin/v1/sessions', headers: { host: CONSOLE_HOST, cookie: await cookieOf(withCode) } });
    expect(strong.statusCode).toBe(200);
    const weakCookie = await cookieOf(passwordOnly);
    const weak = await app.inject({ method: 'GET', url: '/api/admin/v1/sessions', headers: { host: CONSOLE_HOST, cookie: weakCookie } });
    expect(weak.statusCode).toBe(403);
    expect(weak.json()).toEqual({ message: expect.stringContaining('requires two-step'), two_step_setup_required: true });
    // The set-up calls stay open to it.
    const status = await app.inject({ method: 'GET', url: '/api/auth/two-step', headers: { host: CONSOLE_HOST, cookie: weakCookie } });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ enabled: false, required: true });
    await database.query("DELETE FROM app_settings WHERE key = 'require_two_step'");
  });
});
