import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { upsertStaffUser } from '../../server/src/staff/accounts';
import { loadConfig } from '../../server/src/config';
import { testDatabases } from '../support/databases';
import { createTestApp, testClock } from '../support/server';
import { PRESENT_ONLY, SoftPasskey } from '../support/softAuthenticator';
import { totpCode } from '../support/totp';

const START = new Date('2026-11-29T09:00:00Z');
const MINUTE = 60_000;
const HOST = 'console.studio.test';
const ORIGIN = `https://${HOST}`;
const PASSWORD = 'a long enough password';

type Options = { challenge: string; rp: { id: string }; user: { id: string } } & { rpId: string };

/** Passkeys: added from the user menu, signing in with no password, re-authentication, and every way an answer is refused. */
describe.each(testDatabases())('passkeys on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock(START);
  let addressCounter = 10;
  const freshAddress = () => `203.0.113.${addressCounter++}`;

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock, env: { PUBLIC_URL: ORIGIN } });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const call = (method: string, url: string, options: { cookie?: string; payload?: unknown; address?: string; raw?: string } = {}) =>
    app.inject({
      method: method as 'POST',
      url,
      remoteAddress: options.address ?? '198.51.100.1',
      headers: {
        host: HOST,
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.raw !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(options.raw !== undefined ? { payload: options.raw } : options.payload !== undefined ? { payload: options.payload as object } : {}),
    });
  const sessionOf = (response: { cookies: { name: string; value: string }[] }) => {
    const found = response.cookies.find((c) => c.name === 'studio_session' && c.value !== '');
    return found ? `studio_session=${found.value}` : undefined;
  };
  async function passwordSignIn(email: string) {
    const response = await app.inject({
      method: 'POST',
      url: '/login',
      remoteAddress: freshAddress(),
      headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email, password: PASSWORD }).toString(),
    });
    return sessionOf(response)!;
  }
  async function member(email: string, role: 'owner' | 'front_desk' = 'owner') {
    await upsertStaffUser(app.database, { email, password: PASSWORD, role });
    const [{ id }] = await database.query<{ id: number }>('SELECT id FROM staff_users WHERE email = $1', [email]);
    return { id, email, cookie: await passwordSignIn(email) };
  }
  async function addPasskey(cookie: string, name = 'Work laptop') {
    const passkey = new SoftPasskey(ORIGIN);
    const options = (await call('POST', '/api/auth/passkeys/registration-options', { cookie })).json() as Options;
    const added = await call('POST', '/api/auth/passkeys', { cookie, payload: { name, response: passkey.register(options) } });
    expect(added.statusCode, added.body).toBe(201);
    return { passkey, added: added.json() as { id: number; name: string } };
  }
  const signInOptions = async (address = freshAddress()) => (await call('POST', '/login/passkey/options', { address })).json() as Options;
  const passkeySignIn = (response: unknown, address = freshAddress(), next?: string) =>
    call('POST', '/login/passkey', { address, payload: { response, ...(next ? { next } : {}) } });
  const sessionCount = async (email: string) =>
    (
      await database.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions s JOIN staff_users u ON u.id = s.staff_user_id WHERE u.email = $1', [email])
    )[0]!.n;

  it('a member adds a named passkey, sees it listed with its last use, signs in with it and no password, and removes it; each step audited', async () => {
    const me = await member('passkey-owner@studio.test');
    const options = (await call('POST', '/api/auth/passkeys/registration-options', { cookie: me.cookie })).json() as Options & {
      authenticatorSelection: { residentKey: string; userVerification: string };
      attestation: string;
    };
    expect(options.rp.id).toBe(HOST);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.attestation).toBe('none');
    const passkey = new SoftPasskey(ORIGIN);
    const added = await call('POST', '/api/auth/passkeys', { cookie: me.cookie, payload: { name: '  Work laptop ', response: passkey.register(options) } });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toEqual({ id: expect.any(Number), name: 'Work laptop', created_at: START.toISOString(), last_used_at: null, backed_up: false });

    clock.advance(5 * MINUTE);
    const address = freshAddress();
    const signedIn = await passkeySignIn(passkey.assert(await signInOptions(address)), address, '/clients/7/show');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toEqual({ redirect: '/clients/7/show' });
    const cookie = sessionOf(signedIn)!;
    expect((await call('GET', '/api/isAuthenticated', { cookie })).json()).toMatchObject({ isAuthenticated: true, user: { email: me.email } });

    const listed = (await call('GET', '/api/auth/passkeys', { cookie })).json() as { name: string; last_used_at: string }[];
    expect(listed).toEqual([expect.objectContaining({ name: 'Work laptop', last_used_at: clock.now().toISOString() })]);
    const history = (await call('GET', '/api/admin/v1/account/sign-ins', { cookie })).json() as {
      method: string;
      second_step: string | null;
      outcome: string;
    }[];
    expect(history[0]).toMatchObject({ outcome: 'signed_in', method: 'passkey', second_step: 'passkey' });

    const removed = await call('DELETE', `/api/auth/passkeys/${(added.json() as { id: number }).id}`, { cookie });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual([]);
    // A removed passkey signs in no more.
    const after = await passkeySignIn(passkey.assert(await signInOptions()));
    expect(after.statusCode).toBe(401);
    expect(sessionOf(after)).toBeUndefined();

    const audit = await database.query<{ action: string; after: Record<string, unknown> | null; before: Record<string, unknown> | null }>(
      "SELECT action, after, before FROM audit_log WHERE target_type = 'staff_user' AND target_id = $1 AND action LIKE 'auth.%' ORDER BY id",
      [String(me.id)],
    );
    expect(audit.map((row) => row.action)).toEqual(['auth.sign_in', 'auth.passkey_add', 'auth.sign_in', 'auth.passkey_remove']);
    expect(audit[1]!.after).toMatchObject({ name: 'Work laptop' });
    expect(audit[2]!.after).toMatchObject({ method: 'passkey', second_step: 'passkey', passkey: 'Work laptop' });
    expect(audit[3]!.before).toMatchObject({ name: 'Work laptop' });
    // The removed passkey is nobody's now: its failed sign-in is recorded under no account.
    const [failed] = await database.query<{ target_id: string | null; after: Record<string, unknown> }>(
      "SELECT target_id, after FROM audit_log WHERE action = 'auth.sign_in_failed' ORDER BY id DESC LIMIT 1",
    );
    expect(failed).toEqual({ target_id: null, after: expect.objectContaining({ reason: 'passkey: unknown passkey', step: 'passkey' }) });
  });

  it('refuses a replayed answer, a cloned passkey whose counter does not move, and a burst of the same answer: one session at most', async () => {
    const me = await member('passkey-replay@studio.test');
    const { passkey } = await addPasskey(me.cookie);
    const answer = passkey.assert(await signInOptions());
    const first = await passkeySignIn(answer);
    expect(first.statusCode).toBe(200);
    const replay = await passkeySignIn(answer);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toMatch(/expired or was already used/);
    expect(sessionOf(replay)).toBeUndefined();

    // A copy of the key with the counter where it was: a fresh challenge, but a counter the server has already seen.
    passkey.counter -= 1;
    const cloned = await passkeySignIn(passkey.assert(await signInOptions()));
    expect(cloned.statusCode).toBe(401);
    expect(sessionOf(cloned)).toBeUndefined();

    const before = await sessionCount(me.email);
    const burst = passkey.assert(await signInOptions());
    const address = freshAddress();
    const answers = await Promise.all(Array.from({ length: 8 }, () => passkeySignIn(burst, address)));
    const statuses = answers.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.every((status) => status === 200 || (status >= 400 && status < 500))).toBe(true);
    expect(await sessionCount(me.email)).toBe(before + 1);
  });

  it('passkeys that keep no counter (synced ones send 0) still sign in, and their answers are still used once', async () => {
    const me = await member('passkey-synced@studio.test');
    const passkey = new SoftPasskey(ORIGIN, false);
    const options = (await call('POST', '/api/auth/passkeys/registration-options', { cookie: me.cookie })).json() as Options;
    expect((await call('POST', '/api/auth/passkeys', { cookie: me.cookie, payload: { name: 'Phone', response: passkey.register(options) } })).statusCode).toBe(
      201,
    );
    const answer = passkey.assert(await signInOptions());
    expect((await passkeySignIn(answer)).statusCode).toBe(200);
    expect((await passkeySignIn(answer)).statusCode).toBe(400);
    expect((await passkeySignIn(passkey.assert(await signInOptions()))).statusCode).toBe(200);
  });

  it('refuses an unknown passkey, a missing, made-up or expired challenge, another origin or RP ID, and an answer without user verification', async () => {
    const me = await member('passkey-attacks@studio.test');
    const { passkey } = await addPasskey(me.cookie);
    const stranger = new SoftPasskey(ORIGIN);
    stranger.userHandle = passkey.userHandle;
    const unknown = await passkeySignIn(stranger.assert(await signInOptions()));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toMatch(/not registered/);

    const madeUp = await passkeySignIn(passkey.assert({ challenge: 'bm90LWEtY2hhbGxlbmdlLW9mLW91cnM', rpId: HOST }));
    expect(madeUp.statusCode).toBe(400);

    const options = await signInOptions();
    clock.advance(6 * MINUTE);
    const expired = await passkeySignIn(passkey.assert(options));
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toMatch(/expired/);

    for (const [label, overrides] of [
      ['another origin', { origin: 'https://console.studio.test.evil.example' }],
      ['another RP ID', { rpId: 'evil.example' }],
      ['no user verification', { flags: PRESENT_ONLY }],
    ] as const) {
      const refused = await passkeySignIn(passkey.assert(await signInOptions(), overrides));
      expect(refused.statusCode, label).toBe(401);
      expect(sessionOf(refused), label).toBeUndefined();
    }
    // A registration challenge is not a sign-in's.
    const registration = (await call('POST', '/api/auth/passkeys/registration-options', { cookie: me.cookie })).json() as Options;
    expect((await passkeySignIn(passkey.assert({ challenge: registration.challenge, rpId: HOST }))).statusCode).toBe(400);
    expect(await sessionCount(me.email)).toBe(1);
  });

  it('counts passkey answers like passwords: after 10 refused from an address, 429 with Retry-After even for a right one', async () => {
    const me = await member('passkey-throttle@studio.test');
    const { passkey } = await addPasskey(me.cookie);
    const address = freshAddress();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await passkeySignIn(passkey.assert({ challenge: `bm90LW91cnMtYXQtYWxs${attempt}`, rpId: HOST }), address)).statusCode).toBe(400);
    }
    const right = await passkeySignIn(passkey.assert(await signInOptions()), address);
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(sessionOf(right)).toBeUndefined();
    // Once the window has passed, the right passkey signs in.
    clock.advance(3 * MINUTE + 1000);
    expect((await passkeySignIn(passkey.assert(await signInOptions()), address)).statusCode).toBe(200);
  });

  it('answers malformed and oversized bodies with a 4xx naming the problem, never a 500 or a session', async () => {
    const me = await member('passkey-malformed@studio.test');
    const { passkey } = await addPasskey(me.cookie);
    const good = passkey.assert(await signInOptions());
    const bodies: [string, unknown][] = [
      ['no body', undefined],
      ['no response', { next: '/' }],
      ['a string', { response: 'hello' }],
      ['wrong type', { response: { ...good, type: 'password' } }],
      ['not base64url', { response: { ...good, response: { ...good.response, signature: 'a+b/c=' } } }],
      ['clientDataJSON not JSON', { response: { ...good, response: { ...good.response, clientDataJSON: Buffer.from('{nope').toString('base64url') } } }],
      ['a NUL in the id', { response: { ...good, id: 'ab\u0000cd' } }],
      ['numbers for strings', { response: { ...good, response: { ...good.response, authenticatorData: 12 } } }],
    ];
    for (const [label, payload] of bodies) {
      const response = await call('POST', '/login/passkey', { payload: payload ?? undefined, raw: payload === undefined ? '' : undefined });
      expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, label).toBeLessThan(500);
      expect(sessionOf(response), label).toBeUndefined();
    }
    const invalidJson = await call('POST', '/login/passkey', { raw: '{"response": ' });
    expect(invalidJson.statusCode).toBe(400);
    const huge = await call('POST', '/login/passkey', { raw: JSON.stringify({ response: { ...good, id: 'a'.repeat(200_000) } }) });
    expect(huge.statusCode).toBe(413);
    const tooLong = await call('POST', '/login/passkey', { payload: { response: { ...good, response: { ...good.response, signature: 'a'.repeat(9000) } } } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain('signature');
    // The good answer is still good: none of the above used its challenge.
    expect((await passkeySignIn(good)).statusCode).toBe(200);
    // Names: empty, too long, control characters.
    for (const name of ['   ', 'x'.repeat(61), 'tab\there']) {
      const options = (await call('POST', '/api/auth/passkeys/registration-options', { cookie: me.cookie })).json() as Options;
      const refused = await call('POST', '/api/auth/passkeys', { cookie: me.cookie, payload: { name, response: new SoftPasskey(ORIGIN).register(options) } });
      expect(refused.statusCode, name).toBe(400);
      expect(refused.json().message, name).toContain('body.name');
    }
  });

  it('refuses the same passkey twice, a registration answer for another account, and a registration without user verification', async () => {
    const me = await member('passkey-register@studio.test');
    const other = await member('passkey-register-other@studio.test');
    const passkey = new SoftPasskey(ORIGIN);
    const options = (await call('POST', '/api/auth/passkeys/registration-options', { cookie: me.cookie })).json() as Options;
    const response = passkey.register(options);
    // Another member cannot use my registration challenge (nor use it up).
    expect((await call('POST', '/api/auth/passkeys', { cookie: other.cookie, payload: { name: 'Theirs', response } })).statusCode).toBe(400);
    expect((await call('POST', '/api/auth/passkeys', { cookie: me.cookie, payload: { name: 'Mine', response } })).statusCode).toBe(201);
    // A challenge is used once.
    expect((await call('POST', '/api/auth/passkeys', { cookie: me.cookie, payload: { name: 'Mine again', response } })).statusCode).toBe(400);
    const twice = (await call('POST', '/api/auth/passkeys/registration-options', { cookie: other.cookie })).json() as Options;
    const duplicate = await call('POST', '/api/auth/passkeys', { cookie: other.cookie, payload: { name: 'Copy', response: passkey.register(twice) } });
    expect(duplicate.statusCode).toBe(409);
    const noUv = (await call('POST', '/api/auth/passkeys/registration-options', { cookie: me.cookie })).json() as Options;
    const refused = await call('POST', '/api/auth/passkeys', {
      cookie: me.cookie,
      payload: { name: 'No PIN', response: new SoftPasskey(ORIGIN).register(noUv, { flags: PRESENT_ONLY | 0x40 }) },
    });
    expect(refused.statusCode).toBe(400);
    expect(((await call('GET', '/api/auth/passkeys', { cookie: me.cookie })).json() as unknown[]).length).toBe(1);
    // Someone else's passkey id is not found.
    const [{ id }] = await database.query<{ id: number }>('SELECT id FROM staff_passkeys WHERE staff_user_id = $1', [me.id]);
    expect((await call('DELETE', `/api/auth/passkeys/${id}`, { cookie: other.cookie })).statusCode).toBe(404);
  });

  it('re-authentication takes a passkey of the member (not another account’s), and adding or removing one needs a recent check', async () => {
    const me = await member('passkey-reauth@studio.test');
    const other = await member('passkey-reauth-other@studio.test');
    const { passkey, added } = await addPasskey(me.cookie);
    const { passkey: theirs } = await addPasskey(other.cookie);
    clock.advance(16 * MINUTE);
    const stale = await call('DELETE', `/api/auth/passkeys/${added.id}`, { cookie: me.cookie });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ reauth_required: true });
    expect((await call('POST', '/api/auth/passkeys/registration-options', { cookie: me.cookie })).json()).toMatchObject({ reauth_required: true });

    const options = (await call('POST', '/api/auth/passkeys/reauth-options', { cookie: me.cookie })).json() as Options & { allowCredentials: { id: string }[] };
    expect(options.allowCredentials.map((credential) => credential.id)).toEqual([passkey.id]);
    const foreign = await call('POST', '/api/auth/reauth', { cookie: me.cookie, payload: { passkey: theirs.assert(options) } });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual([{ path: 'body.passkey', message: expect.stringContaining('not one of yours') }]);
    // A sign-in challenge does not re-authenticate.
    const signIn = await signInOptions();
    expect((await call('POST', '/api/auth/reauth', { cookie: me.cookie, payload: { passkey: passkey.assert(signIn) } })).statusCode).toBe(400);
    const both = await call('POST', '/api/auth/reauth', { cookie: me.cookie, payload: { password: PASSWORD, passkey: passkey.assert(options) } });
    expect(both.statusCode).toBe(400);

    const fresh = (await call('POST', '/api/auth/passkeys/reauth-options', { cookie: me.cookie })).json() as Options;
    const ok = await call('POST', '/api/auth/reauth', { cookie: me.cookie, payload: { passkey: passkey.assert(fresh) } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ reauthenticated: true, valid_until: new Date(clock.now().getTime() + 15 * MINUTE).toISOString() });
    expect((await call('DELETE', `/api/auth/passkeys/${added.id}`, { cookie: me.cookie })).statusCode).toBe(200);
    const [entry] = await database.query<{ after: Record<string, unknown> }>(
      "SELECT after FROM audit_log WHERE action = 'auth.reauth' AND target_id = $1 ORDER BY id DESC LIMIT 1",
      [String(me.id)],
    );
    expect(entry!.after).toEqual({ method: 'passkey' });
    const [failed] = await database.query<{ after: Record<string, unknown> }>(
      "SELECT after FROM audit_log WHERE action = 'auth.reauth_failed' AND target_id = $1 ORDER BY id LIMIT 1",
      [String(me.id)],
    );
    expect(failed!.after).toMatchObject({ purpose: 'reauth', reason: "another account's passkey" });
    // Without passkeys there are no options to ask for.
    expect((await call('POST', '/api/auth/passkeys/reauth-options', { cookie: me.cookie })).statusCode).toBe(409);
  });

  it('an owner whose two-step is a passkey may require two-step of everyone', async () => {
    const owner = await member('passkey-only-owner@studio.test');
    const { passkey } = await addPasskey(owner.cookie);
    const cookie = sessionOf(await passkeySignIn(passkey.assert(await signInOptions())))!;
    const on = await call('PUT', '/api/admin/v1/security-settings', { cookie, payload: { require_two_step: true } });
    expect(on.statusCode, on.body).toBe(200);
    expect((await call('PUT', '/api/admin/v1/security-settings', { cookie, payload: { require_two_step: false } })).statusCode).toBe(200);
    // Without a passkey or an authenticator, still refused.
    const plain = await member('passkey-plain-owner@studio.test');
    expect((await call('PUT', '/api/admin/v1/security-settings', { cookie: plain.cookie, payload: { require_two_step: true } })).statusCode).toBe(409);
  });

  it("a passkey counts as two-step under the owner's rule; a disabled account's passkey opens no session; an owner's reset removes the passkeys", async () => {
    const owner = await member('passkey-rule-owner@studio.test');
    const { secret } = (await call('POST', '/api/auth/two-step/totp', { cookie: owner.cookie })).json() as { secret: string };
    expect((await call('POST', '/api/auth/two-step/totp/confirm', { cookie: owner.cookie, payload: { code: totpCode(secret, clock.now()) } })).statusCode).toBe(
      200,
    );
    const desk = await member('passkey-rule-desk@studio.test', 'front_desk');
    const { passkey } = await addPasskey(desk.cookie);
    expect((await call('PUT', '/api/admin/v1/security-settings', { cookie: owner.cookie, payload: { require_two_step: true } })).statusCode).toBe(200);
    try {
      // A password sign-in has no second step: set-up first.
      const withPassword = await passwordSignIn(desk.email);
      expect((await call('GET', '/api/admin/v1/sessions', { cookie: withPassword })).json()).toMatchObject({ two_step_setup_required: true });
      // A passkey sign-in has.
      const signedIn = await passkeySignIn(passkey.assert(await signInOptions()));
      const cookie = sessionOf(signedIn)!;
      expect((await call('GET', '/api/admin/v1/sessions', { cookie })).statusCode).toBe(200);
      // Adding a passkey during the set-up is a second step too (this session proved the device).
      const { passkey: second } = await addPasskey(withPassword, 'Phone');
      expect((await call('GET', '/api/admin/v1/sessions', { cookie: withPassword })).statusCode).toBe(200);

      // The staff screen says two-step is on for an account whose only second step is its passkeys.
      const shown = async () => [
        ((await call('GET', `/api/admin/v1/staff/${desk.id}`, { cookie: owner.cookie })).json() as { two_step: boolean }).two_step,
        (
          (await call('GET', `/api/admin/v1/staff?filter=${encodeURIComponent(JSON.stringify({ id: [desk.id] }))}`, { cookie: owner.cookie })).json() as {
            two_step: boolean;
          }[]
        )[0]?.two_step,
      ];
      expect(await shown()).toEqual([true, true]);
      const reset = await call('POST', `/api/admin/v1/staff/${desk.id}/reset-two-step`, { cookie: owner.cookie });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(await shown()).toEqual([false, false]);
      expect((await call('GET', '/api/auth/passkeys', { cookie })).statusCode).toBe(401);
      expect((await passkeySignIn(second.assert(await signInOptions()))).statusCode).toBe(401);
      const [entry] = await database.query<{ after: Record<string, unknown> }>(
        "SELECT after FROM audit_log WHERE action = 'auth.two_step_reset' AND target_id = $1",
        [String(desk.id)],
      );
      expect(entry!.after).toMatchObject({ passkeys_removed: 2 });
    } finally {
      clock.advance(30_000);
      await call('PUT', '/api/admin/v1/security-settings', { cookie: owner.cookie, payload: { require_two_step: false } });
    }

    const disabled = await member('passkey-disabled@studio.test');
    const { passkey: theirs } = await addPasskey(disabled.cookie);
    await database.query('UPDATE staff_users SET disabled_at = now() WHERE id = $1', [disabled.id]);
    const refused = await passkeySignIn(theirs.assert(await signInOptions()));
    expect(refused.statusCode).toBe(403);
    expect(sessionOf(refused)).toBeUndefined();
  });

  it("the sign-in page offers a passkey with its nonce'd script, and serves @simplewebauthn/browser's bundle", async () => {
    const page = await call('GET', '/login?next=/clients');
    expect(page.statusCode).toBe(200);
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))![1];
    expect(page.body).toContain('>Use a passkey</button>');
    expect(page.body).toContain(`<script src="/login/passkey/webauthn.js" nonce="${nonce}"></script>`);
    expect(page.body).toContain('"next":"/clients"');
    const script = await call('GET', '/login/passkey/webauthn.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toContain('SimpleWebAuthnBrowser');
  });

  it('PASSKEY_RP_ID must be PUBLIC_URL’s host or a parent domain of it', () => {
    expect(loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://console.studio.example', PASSKEY_RP_ID: 'studio.example' }).PASSKEY_RP_ID).toBe(
      'studio.example',
    );
    expect(() => loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://console.studio.example', PASSKEY_RP_ID: 'other.example' })).toThrow(/PASSKEY_RP_ID/);
    expect(() => loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://console.studio.example', PASSKEY_RP_ID: 'https://studio.example' })).toThrow(
      /PASSKEY_RP_ID/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', PASSKEY_RP_ID: 'studio.example' })).toThrow(/PUBLIC_URL/);
  });
});
