import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import type { Database } from '../../server/src/db/client';
import { GOOGLE_ID_TOKEN_KEYS_URL, googleIdTokenKeys, IdTokenKeysUnavailable, keysMaxAgeMs } from '../../server/src/integrations/firebase/idToken';
import { insertClient } from '../support/clientFixtures';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';

// docs/security-app.md, FIREBASE_PROJECT_ID mode: the report carries the signed-in user's Firebase ID
// token, checked as firebase.google.com/docs/auth/admin/verify-id-tokens says, against a local key set.
const KEY = 'app-key-for-the-tests-0123';
const PROJECT = 'studio-app-1234';
const START = new Date('2026-11-22T12:00:00Z');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

interface Signer {
  privateKey: CryptoKey;
  jwk: JWK;
}
async function signer(kid: string): Promise<Signer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

/** The claims of a Firebase ID token for an e-mail/password user, as Firebase issues them. */
const firebaseClaims = (email: string, issuedAt: Date, overrides: JWTPayload = {}): JWTPayload => ({
  iss: `https://securetoken.google.com/${PROJECT}`,
  aud: PROJECT,
  auth_time: seconds(issuedAt) - 600,
  user_id: 'kXh3uUn3QmWbN6SXQ2m6MZcX9qk2',
  sub: 'kXh3uUn3QmWbN6SXQ2m6MZcX9qk2',
  iat: seconds(issuedAt),
  exp: seconds(issuedAt) + 3600,
  email,
  email_verified: true,
  firebase: { identities: { email: [email] }, sign_in_provider: 'password' },
  ...overrides,
});

const sign = (key: Signer, payload: JWTPayload, header: { alg?: string; kid?: string } = {}) =>
  new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: key.jwk.kid!, typ: 'JWT', ...header }).sign(key.privateKey);

describe.each(testDatabases())('app reports with FIREBASE_PROJECT_ID on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let google: Signer;
  let stranger: Signer;
  let ada: number;
  const clock = testClock(START);

  beforeAll(async () => {
    database = await open();
    google = await signer('google-key-1');
    stranger = await signer('stranger-key');
    app = await createTestApp(database, {
      clock,
      env: { APP_API_KEY: KEY, FIREBASE_PROJECT_ID: PROJECT, APP_RATE_LIMIT_PER_MINUTE: '1000' },
      firebaseIdTokenKeys: createLocalJWKSet({ keys: [google.jwk] }),
    });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    clock.set(START);
    await database.execScript('DELETE FROM debug_records; DELETE FROM video_views; DELETE FROM videos; DELETE FROM clients;');
    ada = await insertClient(database, { first_name: 'Ada', email_address: 'Ada@Example.test', mb_client_id: '100042', mb_site_id: -99 });
  });

  const post = (path: string, body: Record<string, unknown>, authorization?: string) =>
    app.inject({
      method: 'POST',
      url: `/api/app/v1/${path}`,
      headers: { 'x-app-key': KEY, ...(authorization === undefined ? {} : { authorization }) },
      payload: body,
    });
  const adaToken = (overrides: JWTPayload = {}) => sign(google, firebaseClaims('ada@example.test', START, overrides));
  const stored = async () => (await database.query<{ n: number }>('SELECT count(*)::int AS n FROM debug_records'))[0]!.n;

  it('stores a report whose ID token is valid and names the client by the verified e-mail', async () => {
    const response = await post('debug-info', { email: 'ADA@example.test', platform: 'ios', firebase_token_new: 'ada-iphone' }, `Bearer ${await adaToken()}`);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ id: expect.any(Number), client_id: ada });
    // Named by Mindbody id only: the token's e-mail is the one stored and matched.
    const byMindbodyId = await post(
      'debug-info',
      { mb_client_id: '100042', platform: 'android', firebase_token_new: 'ada-pixel' },
      `Bearer ${await adaToken()}`,
    );
    expect(byMindbodyId.json()).toMatchObject({ client_id: ada });
    const rows = await database.query<{ email: string; identity_verified: boolean }>('SELECT email, identity_verified FROM debug_records ORDER BY id');
    // The e-mail stored is the one the token proves.
    expect(rows).toEqual([
      { email: 'ada@example.test', identity_verified: true },
      { email: 'ada@example.test', identity_verified: true },
    ]);
  });

  it('refuses with 401 and a clear message every token that does not prove the client, and stores nothing', async () => {
    const hs256 = await new SignJWT(firebaseClaims('ada@example.test', START))
      .setProtectedHeader({ alg: 'HS256', kid: 'google-key-1' })
      .sign(new TextEncoder().encode('a-shared-secret-of-32-bytes-long!'));
    const cases: [string, string | undefined, RegExp][] = [
      ['missing header', undefined, /Authorization header is missing/],
      ['not a bearer token', `Basic ${Buffer.from('ada:pw').toString('base64')}`, /must be "Bearer <Firebase ID token>"/],
      ['garbage', 'Bearer not.a.jwt', /not a signed JWT/],
      ['wrong aud', `Bearer ${await adaToken({ aud: 'another-project' })}`, /another Firebase project \(aud must be studio-app-1234\)/],
      [
        'wrong iss',
        `Bearer ${await adaToken({ iss: 'https://securetoken.google.com/another-project' })}`,
        /iss must be https:\/\/securetoken\.google\.com\/studio-app-1234/,
      ],
      ['expired', `Bearer ${await adaToken({ iat: seconds(START) - 7200, exp: seconds(START) - 3600 })}`, /has expired/],
      ['issued in the future', `Bearer ${await adaToken({ iat: seconds(START) + 3600, exp: seconds(START) + 7200 })}`, /iat must be in the past/],
      ['auth_time in the future', `Bearer ${await adaToken({ auth_time: seconds(START) + 3600 })}`, /auth_time must be in the past/],
      ['no auth_time', `Bearer ${await adaToken({ auth_time: undefined })}`, /auth_time/],
      ['empty sub', `Bearer ${await adaToken({ sub: '' })}`, /sub/],
      ['wrong alg', `Bearer ${hs256}`, /signed with RS256/],
      ['unknown kid', `Bearer ${await sign(stranger, firebaseClaims('ada@example.test', START))}`, /kid is not one of the keys Google publishes/],
      [
        'forged with a known kid',
        `Bearer ${await sign(stranger, firebaseClaims('ada@example.test', START), { kid: 'google-key-1' })}`,
        /signature does not match/,
      ],
      ['unverified e-mail', `Bearer ${await adaToken({ email_verified: false })}`, /not verified/],
      ['no e-mail', `Bearer ${await adaToken({ email: undefined })}`, /no email claim/],
      [
        'another e-mail than the report',
        `Bearer ${await sign(google, firebaseClaims('mallory@example.test', START))}`,
        /report's email is not the e-mail address of the signed-in Firebase user/,
      ],
    ];
    for (const [what, authorization, message] of cases) {
      for (const path of ['debug-info', 'video-views']) {
        const response = await post(
          path,
          { email: 'ada@example.test', platform: 'ios', vimeo_video_id: '1', viewed_at: '2026-11-22T11:00:00Z' },
          authorization,
        );
        expect(response.statusCode, `${what} ${path}`).toBe(401);
        expect(response.json(), what).toEqual({ message: expect.stringMatching(message) });
      }
    }
    expect(await stored()).toBe(0);
  });

  it("does not let another client's Mindbody id stand in for a verified e-mail nobody has", async () => {
    const mallory = await sign(google, firebaseClaims('mallory@example.test', START));
    const response = await post('debug-info', { mb_client_id: '100042', platform: 'ios', firebase_token_new: 'mallory-phone' }, `Bearer ${mallory}`);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ client_id: null });
    expect((await app.push.tokensFor(ada)).tokens).toEqual([]);
  });

  it('lets a verified report take the device slot from a report that only had the shared key', async () => {
    await database.query(
      `INSERT INTO debug_records (client_id, email, platform, is_ipad, firebase_token_new, created_at) VALUES ($1, 'ada@example.test', 'ios', false, 'intruder-iphone', $2)`,
      [ada, new Date(START.getTime() - 60_000).toISOString()],
    );
    await post('debug-info', { email: 'ada@example.test', platform: 'ios', is_ipad: false, firebase_token_new: 'ada-iphone' }, `Bearer ${await adaToken()}`);
    expect((await app.push.tokensFor(ada)).tokens).toEqual(['ada-iphone']);
  });

  it('records a streamed video when the token proves the client', async () => {
    await database.query("INSERT INTO videos (vimeo_video_id, title, duration) VALUES ('76979871', 'Morning Mobility', 900)");
    const response = await post(
      'video-views',
      { email: 'ada@example.test', vimeo_video_id: '76979871', viewed_at: '2026-11-22T11:40:00Z' },
      `Bearer ${await adaToken()}`,
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ client_id: ada, duplicate: false });
  });

  it('records a push opened only when the token proves the client whose push it is', async () => {
    const [push] = await database.query<{ id: number }>(
      "INSERT INTO pushes (client_id, sent_by, title, body, status, created_at) VALUES ($1, 'automated', 'Hi', 'Body', 'sent', $2) RETURNING id",
      [ada, START.toISOString()],
    );
    const body = { email: 'ada@example.test', push_id: Number(push!.id) };
    expect((await post('push-opened', body)).statusCode).toBe(401);
    const someoneElse = await post('push-opened', { ...body, email: 'eve@example.test' }, `Bearer ${await adaToken()}`);
    expect(someoneElse.statusCode).toBe(401);
    const opened = await post('push-opened', body, `Bearer ${await adaToken()}`);
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.json()).toMatchObject({ push_id: Number(push!.id), duplicate: false });
  });

  it('documents the ID token next to the app key in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie: await signIn(app) } })).json();
    for (const path of ['/api/app/v1/debug-info', '/api/app/v1/video-views'])
      expect(doc.paths[path].post.security).toEqual([{ appKey: [], firebaseIdToken: [] }]);
    expect(doc.components.securitySchemes.firebaseIdToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it("answers 503 and stores nothing when Google's keys cannot be fetched", async () => {
    const offline = await createTestApp(database, {
      clock,
      env: { APP_API_KEY: KEY, FIREBASE_PROJECT_ID: PROJECT },
      firebaseIdTokenKeys: async () => {
        throw new IdTokenKeysUnavailable('network error');
      },
    });
    try {
      const response = await offline.inject({
        method: 'POST',
        url: '/api/app/v1/debug-info',
        headers: { 'x-app-key': KEY, authorization: `Bearer ${await adaToken()}` },
        payload: { email: 'ada@example.test', platform: 'ios' },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ message: 'Cannot check the Firebase ID token right now; retry in a minute' });
      expect(await stored()).toBe(0);
    } finally {
      await offline.close();
    }
  });
});

describe("Google's keys for Firebase ID tokens", () => {
  const setup = async () => {
    const key = await signer('k1');
    let time = START.getTime();
    const fetched: string[] = [];
    let answer = { keys: [key.jwk] as JWK[], cacheControl: 'public, max-age=22765, must-revalidate, no-transform' };
    const keys = googleIdTokenKeys({
      now: () => time,
      fetch: (async (url: string) => {
        fetched.push(url);
        return new Response(JSON.stringify({ keys: answer.keys }), { headers: { 'content-type': 'application/json', 'cache-control': answer.cacheControl } });
      }) as typeof fetch,
    });
    return { key, keys, fetched, advance: (ms: number) => (time += ms), answer: (next: typeof answer) => (answer = next) };
  };
  const verifyWith = async (keys: ReturnType<typeof googleIdTokenKeys>, token: string) => {
    const { jwtVerify } = await import('jose');
    return jwtVerify(token, keys, { currentDate: START, algorithms: ['RS256'] });
  };

  it('fetches the published keys once and keeps them for the max-age Google sends', async () => {
    const { key, keys, fetched, advance } = await setup();
    const token = await sign(key, firebaseClaims('ada@example.test', START));
    await verifyWith(keys, token);
    advance(22_000_000);
    await verifyWith(keys, token);
    expect(fetched).toEqual([GOOGLE_ID_TOKEN_KEYS_URL]);
    advance(1_000_000);
    await verifyWith(keys, token);
    expect(fetched).toHaveLength(2);
  });

  it('fetches again for a kid it has not seen, but not more than once a minute', async () => {
    const { key, keys, fetched, advance, answer } = await setup();
    await verifyWith(keys, await sign(key, firebaseClaims('ada@example.test', START)));
    const rotated = await signer('k2');
    const token = await sign(rotated, firebaseClaims('ada@example.test', START));
    await expect(verifyWith(keys, token)).rejects.toThrow();
    expect(fetched).toHaveLength(1);
    answer({ keys: [key.jwk, rotated.jwk], cacheControl: 'max-age=3600' });
    advance(61_000);
    await verifyWith(keys, token);
    expect(fetched).toHaveLength(2);
  });

  it('says the keys are unavailable when Google answers an error or no key set', async () => {
    const key = await signer('k1');
    const token = await sign(key, firebaseClaims('ada@example.test', START));
    for (const answer of [new Response('oops', { status: 500 }), new Response('<html>', { status: 200 })]) {
      const keys = googleIdTokenKeys({ now: () => START.getTime(), fetch: (async () => answer) as unknown as typeof fetch });
      await expect(verifyWith(keys, token)).rejects.toBeInstanceOf(IdTokenKeysUnavailable);
    }
  });

  it('reads max-age from Cache-Control within sane bounds', () => {
    expect(keysMaxAgeMs('public, max-age=19204, must-revalidate, no-transform')).toBe(19_204_000);
    expect(keysMaxAgeMs('no-cache')).toBeNull();
    expect(keysMaxAgeMs(null)).toBeNull();
    expect(keysMaxAgeMs('max-age=0')).toBe(60_000);
    expect(keysMaxAgeMs('max-age=999999999')).toBe(24 * 60 * 60_000);
  });
});
