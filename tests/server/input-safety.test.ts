import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { revenueCatHarness, START } from '../support/revenuecatHarness';
import { HOUR, rcEvent } from '../support/revenuecatEvents';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { MAX_JSON_DEPTH } from '../../server/src/lib/jsonDepth';

// docs/security.md: what an attacker or a careless caller sends must never answer 500.
const APP_KEY = 'app-key-for-the-tests-0123';
const SEARCH = { 'x-algolia-application-id': 'STUDIOTEST', 'x-algolia-api-key': 'search-only-key-for-tests' };
const WEBHOOK_AUTH = 'rc-webhook-secret-for-the-tests';
const UNSAFE = 'must not contain NUL or unpaired surrogate characters';

describe.each(testDatabases())('hostile input on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  let ada: number;
  const clock = testClock(new Date('2026-11-22T12:00:00Z'));

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, {
      clock,
      env: {
        APP_API_KEY: APP_KEY,
        REVENUECAT_WEBHOOK_AUTH: WEBHOOK_AUTH,
        SEARCH_APP_ID: SEARCH['x-algolia-application-id'],
        SEARCH_API_KEY: SEARCH['x-algolia-api-key'],
      },
    });
    cookie = await signIn(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    await database.execScript('DELETE FROM favorites; DELETE FROM debug_records; DELETE FROM pushes; DELETE FROM audit_log; DELETE FROM clients;');
    // Ids 1, 7, 9 and 10 exist so that a coerced id would find a client to change.
    for (const id of [1, 7, 9, 10]) {
      await database.query("INSERT INTO clients (id, first_name, email_address, vod_access_level) VALUES ($1, 'Ada', $2, 1)", [id, `ada${id}@example.test`]);
    }
    ada = 1;
  });

  const clients = () => database.query('SELECT id, vod_access_level, admin_updated_expiration FROM clients ORDER BY id');
  const staff = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { cookie, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('answers 400 naming the query field when a search text holds NUL', async () => {
    const response = await staff('GET', '/api/client/v1/clients/1?q=%00');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: `Invalid request: querystring.q: ${UNSAFE}`, errors: [{ path: 'querystring.q', message: UNSAFE }] });
  });

  it('answers 400 naming the body field for NUL or a lone surrogate in a staff write, and stores nothing', async () => {
    for (const title of ['Hi\u0000', 'Hi \ud800', '\udc00 there']) {
      const response = await staff('POST', '/api/client/v1/client-details/push-notification', {
        notification: { title, body: 'Class moved' },
        email_address: 'ada1@example.test',
      });
      expect(response.statusCode, JSON.stringify(title)).toBe(400);
      expect(response.json().errors).toEqual([{ path: 'body.notification.title', message: UNSAFE }]);
    }
    // A well-formed pair of surrogates is an ordinary character (an emoji) and goes through.
    const emoji = await staff('POST', '/api/client/v1/client-details/push-notification', {
      notification: { title: 'Hi \ud83d\ude00', body: 'Class moved' },
      email_address: 'ada1@example.test',
    });
    expect(emoji.statusCode).toBe(200);
    expect((await database.query('SELECT title FROM pushes')).map((row) => (row as { title: string }).title)).toEqual(['Hi 😀']);
  });

  it('answers 400 for NUL in a JSON object key, a path parameter or a JSON filter', async () => {
    const key = await app.inject({
      method: 'POST',
      url: '/api/app/v1/debug-info',
      headers: { 'x-app-key': APP_KEY },
      payload: { email: 'ada1@example.test', device_constants: { 'bad\u0000key': 1 } },
    });
    expect(key.statusCode).toBe(400);
    expect(key.json().errors).toEqual([{ path: 'body.device_constants', message: `keys ${UNSAFE}` }]);
    const value = await app.inject({
      method: 'POST',
      url: '/api/app/v1/debug-info',
      headers: { 'x-app-key': APP_KEY },
      payload: { email: 'ada1@example.test', platform: 'ios\u0000' },
    });
    expect(value.statusCode).toBe(400);
    expect(value.json().errors).toEqual([{ path: 'body.platform', message: UNSAFE }]);
    expect(await database.query('SELECT id FROM debug_records')).toEqual([]);

    const path = await staff('GET', '/api/client/v1/client-details/-99/ab%00c/purchases');
    expect(path.statusCode).toBe(400);
    expect(path.json().errors).toEqual([{ path: 'params.mbClientId', message: UNSAFE }]);

    const filter = await staff('GET', `/api/admin/v1/videos?filter=${encodeURIComponent(JSON.stringify({ q: 'yo\u0000ga' }))}`);
    expect(filter.statusCode).toBe(400);
    expect(filter.json().errors).toEqual([{ path: 'querystring.filter.q', message: UNSAFE }]);
  });

  it('takes ids only as whole numbers: booleans, arrays, hex, exponents, signs and fractions change nothing', async () => {
    const before = await clients();
    const until = new Date(clock.now().getTime() + 24 * HOUR).toISOString();
    for (const client_id of [true, [7], '0x9', '1e1', ' 7', '+7', '7.0', 1.5, -1, 0, '', null, {}, 2 ** 53 + 1, '99999999999999999999']) {
      const response = await staff('POST', '/api/client/v1/client-details/update-access-level', {
        client_id,
        new_vod_access_level: 3,
        adminOverrideDate: until,
      });
      expect(response.statusCode, JSON.stringify(client_id)).toBe(400);
      expect(response.json().errors[0].path, JSON.stringify(client_id)).toBe('body.client_id');
    }
    expect(await clients()).toEqual(before);
    // The forms that are ids: a JSON number and its digits.
    for (const client_id of [7, '9']) {
      const response = await staff('POST', '/api/client/v1/client-details/update-access-level', {
        client_id,
        new_vod_access_level: 3,
        adminOverrideDate: until,
      });
      expect(response.statusCode, JSON.stringify(client_id)).toBe(200);
      expect(response.json().client._id).toBe(Number(client_id));
    }
  });

  it('answers 400, not 500, for path ids beyond the column and odd spellings', async () => {
    // Videos have integer (int4) ids; the others bigint ones, which stop at 2^53 - 1 here.
    const beyond = (url: string) => (url.includes('/videos/') ? '2147483648' : '9007199254740993');
    for (const id of ['beyond', '0x9', '1e1', '-1', '1.5', '%201', '99999999999999999999']) {
      for (const template of [
        '/api/admin/v1/videos/:id',
        '/api/admin/v1/audit/:id',
        '/api/admin/v1/vimeo-syncs/:id',
        '/api/admin/v1/clients/:id/automated-messages',
      ]) {
        const url = template.replace(':id', id === 'beyond' ? beyond(template) : id);
        const response = await staff('GET', url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json().errors[0].path, url).toBe('params.id');
      }
    }
  });

  it('answers 400 for paging out of range, in every paging dialect', async () => {
    const huge = 2 ** 53 + 2;
    for (const url of [
      `/api/admin/v1/videos?range=${encodeURIComponent(JSON.stringify([huge, huge + 1]))}`,
      `/api/admin/v1/videos?range=${encodeURIComponent('[1e300,1e300]')}`,
      `/api/admin/v1/pushes?range=${encodeURIComponent(JSON.stringify([2 ** 31, 2 ** 31 + 1]))}`,
      `/api/admin/v1/audit?range=${encodeURIComponent('[true,5]')}`,
      `/api/client/v1/clients/1?page=${huge}`,
      `/api/client/v1/clients/1?page=0x10`,
      `/api/client/v1/clients/1?perPage=1e1`,
    ]) {
      const response = await staff('GET', url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(/^Invalid request: querystring\./);
    }
    for (const params of [{ page: huge }, { page: 2 ** 31 }, { hitsPerPage: huge }, { page: '1e1' }, { page: true }]) {
      const response = await staff('POST', '/1/indexes/Customers/query', { query: 'ada', ...params }, SEARCH);
      expect(response.statusCode, JSON.stringify(params)).toBe(400);
      expect(response.json().message, JSON.stringify(params)).toMatch(/^(page|hitsPerPage) must be/);
    }
  });

  it('refuses form-encoded bodies with 415 on JSON routes, and still signs in with the login form', async () => {
    const before = await clients();
    const until = new Date(clock.now().getTime() + 24 * HOUR).toISOString();
    const response = await staff(
      'POST',
      '/api/client/v1/client-details/update-access-level',
      new URLSearchParams({ client_id: '7', new_vod_access_level: '3', adminOverrideDate: until }).toString(),
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toMatch(/Unsupported Media Type/i);
    expect(await clients()).toEqual(before);
    expect(await signIn(app)).toMatch(/^studio_session=/);
  });

  it('keeps a mobile-app report with an ordinary emoji and refuses a lone surrogate', async () => {
    const ok = await app.inject({
      method: 'POST',
      url: '/api/app/v1/debug-info',
      headers: { 'x-app-key': APP_KEY },
      payload: { email: `ada${ada}@example.test`, platform: 'ios', app_version: '3.6.1 🚀' },
    });
    expect(ok.statusCode).toBe(201);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/app/v1/debug-info',
      headers: { 'x-app-key': APP_KEY },
      payload: { email: `ada${ada}@example.test`, network_info: { ssid: '\ud800' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ path: 'body.network_info.ssid', message: UNSAFE }]);
  });

  it('answers 400 naming the nesting limit for a deeply nested body on staff, app-key, webhook and search routes', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const objects = `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`;
    const limit = `Invalid request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`;
    const sends = [
      (payload: string) => staff('POST', '/api/client/v1/client-details/push-notification', payload, { 'content-type': 'application/json' }),
      (payload: string) =>
        app.inject({ method: 'POST', url: '/api/app/v1/debug-info', headers: { 'x-app-key': APP_KEY, 'content-type': 'application/json' }, payload }),
      (payload: string) =>
        app.inject({ method: 'POST', url: '/api/webhooks/revenuecat', headers: { authorization: WEBHOOK_AUTH, 'content-type': 'application/json' }, payload }),
      (payload: string) => staff('POST', '/1/indexes/Customers/query', payload, { ...SEARCH, 'content-type': 'text/plain' }),
    ];
    for (const send of sends) {
      for (const payload of [deep, objects]) {
        const response = await send(payload);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe(limit);
      }
    }
    // At the limit a body is read as usual (and refused for what it says, not for its shape).
    const atLimit = await staff('POST', '/api/client/v1/client-details/push-notification', `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`, {
      'content-type': 'application/json',
    });
    expect(atLimit.statusCode).toBe(400);
    expect(atLimit.json().message).not.toContain('nested');
  });

  it('searches and stores any valid Unicode text as PostgreSQL does', async () => {
    for (const query of ['\u195e\ud83d\udd37\ud834\udd4c\u2bea', '\u{1D54C}\u{10FFFF}\uFFFD', 'ada']) {
      const response = await staff('POST', '/1/indexes/Customers/query', { query }, SEARCH);
      expect(response.statusCode, JSON.stringify(query)).toBe(200);
    }
    // Any text of whole characters, astral ones included (no NUL: no database stores it).
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((value) => !value.includes('\u0000'));
    await fc.assert(
      fc.asyncProperty(text, async (query) => {
        const response = await staff('POST', '/1/indexes/Customers/query', { query }, SEARCH);
        expect(response.statusCode, JSON.stringify(query)).toBe(200);
        expect(response.json().query).toBe(query);
        const [row] = await database.query<{ t: string }>('SELECT $1::text AS t', [query]);
        expect(row!.t).toBe(query);
      }),
      { numRuns: 60, seed: 20261129 },
    );
    // A client whose name is such text is found by it.
    await database.query("INSERT INTO clients (id, first_name, last_name, email_address, vod_access_level) VALUES (20, 'Ada', $1, 'ada20@example.test', 1)", [
      'ᥞ🔷𝅌⯪',
    ]);
    const found = await staff('POST', '/1/indexes/Customers/query', { query: 'ᥞ🔷𝅌⯪' }, SEARCH);
    expect(found.json().hits.map((hit: { objectID: string }) => hit.objectID)).toEqual(['20']);
  });
});

describe.each(testDatabases())('RevenueCat events with NUL or lone surrogates on $name', ({ open }) => {
  const h = revenueCatHarness(open);

  it('stores the event without the bad characters, processes it, and answers a redelivery as a duplicate', async () => {
    const body = rcEvent('INITIAL_PURCHASE', {
      at: START,
      extra: {
        subscriber_attributes: {
          $email: { updated_at_ms: START.getTime() - HOUR, value: 'ada@example.test\u0000' },
          $displayName: { updated_at_ms: 1, value: 'Ada \ud800' },
        },
        presented_offering_id: 'default\u0000_offering',
      },
    });
    for (const duplicate of [false, true]) {
      const response = await h.post(body);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true, duplicate });
      await h.app.jobs.runDue();
    }
    expect(await h.count('revenuecat_events')).toBe(1);
    const [stored] = await h.database.query<{ state: string; body: { event: Record<string, unknown> } }>('SELECT state, body FROM revenuecat_events');
    expect(stored!.state).toBe('processed');
    expect(stored!.body.event.subscriber_attributes).toEqual({
      $email: { updated_at_ms: START.getTime() - HOUR, value: 'ada@example.test' },
      $displayName: { updated_at_ms: 1, value: 'Ada ' },
    });
    expect(await h.history()).toEqual([
      expect.objectContaining({ revenue_cat_user_id: 'rc-ada', upsell_source: 'default_offering', subscription_status: 'active' }),
    ]);
  });
});

describe.each(testDatabases())('the database refusing text on $name', ({ open }) => {
  it('answers 400, not 500, when a value the request check missed reaches a query', async () => {
    const database = await open();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', CONSOLE_DIR: '/nonexistent', MINDBODY_SYNC_INTERVAL_MINUTES: '0' });
    const app = await buildApp({ config, database, logger: false });
    // A route of the kind the check cannot see into: the text only becomes NUL inside the handler.
    app.get('/test-only/decoded', { config: { public: true } }, async () =>
      database.query('SELECT $1::text AS t', [Buffer.from('AGE=', 'base64').toString('utf8')]),
    );
    try {
      await app.ready();
      const response = await app.inject({ method: 'GET', url: '/test-only/decoded' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'Invalid request: a text value contains characters that cannot be stored (NUL or an unpaired surrogate)' });
    } finally {
      await app.close();
      await database.close();
    }
  });
});
