import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { asText, encode, fingerprint } from '../support/attacks';
import { MAX_JSON_DEPTH } from '../../server/src/lib/jsonDepth';
import { seedDemoData } from '../../server/seed/demo';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn } from '../support/server';
import { isOptional, isWholeNumberField, routeFields, sampleValue, takesList, withValue, type Field } from '../support/schemaFields';

// Every route of the route table, signed in as staff and with the integrations' keys, gets what an
// attacker sends in every field its schemas declare (and in its path parameters): a route added
// later is attacked too without touching this file.

// Routes whose purpose is to change the session itself; attacking them would only sign us out.
const SIGN_IN_PAGES = ['GET /login', 'POST /login', 'GET /login/two-step', 'POST /login/two-step', 'GET /callback'];
const SKIP = new Set(['GET /logout', 'POST /logout', ...SIGN_IN_PAGES, 'GET /', 'GET /*']);
// The spec makes these GETs start work (a sync); an accepted one may change stored data.
// The export writes its audit entry and answers the client's access request.
const STATE_CHANGING_GETS = new Set(['/api/v1/sync/all-vimeo-videos', '/api/v1/sync/contracts/:siteId/:mbClientId', '/api/admin/v1/clients/:id/export']);
// Algolia's v4 client posts JSON text labelled form-urlencoded; the search protocol reads any body as JSON.
const READS_ANY_CONTENT_TYPE = (url: string) => url.startsWith('/1/');
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 25);

const KEYS = { app: 'app-key-for-the-fuzz-tests', webhook: 'rc-webhook-secret-for-fuzz', searchApp: 'STUDIOFUZZ', search: 'search-only-key-for-fuzz' };

/** Text PostgreSQL cannot store: refused (400) everywhere but from outside services. */
const UNSTORABLE_TEXT = ['\u0000', 'ada\u0000@example.test', '\ud800', 'x\udfff', '\udc00\ud800'];
/** What Number() or a loose coercion turns into some record's id; a whole-number field must refuse each. */
const NOT_WHOLE_NUMBERS: unknown[] = [true, [7], [7, 9], '0x9', '1e1', '+7', '7.0', 1.5, {}, 2 ** 53 + 1, '99999999999999999999', 1e308];
/** The issue's list of id confusions, sent to every field: no 5xx. */
const ID_CONFUSIONS: unknown[] = [true, [7], '0x9', '1e1', -1, 2 ** 31, 2 ** 53 + 1, 1.5, '', null, {}];
/** Storable but odd: no 5xx. */
const ODD_TEXT = [
  '\u195e\ud83d\udd37\ud834\udd4c\u2bea',
  '\u{1D54C}\u{10FFFF}',
  '\u202eevil',
  'zero\u200bwidth',
  'e\u0301',
  '\uffff',
  '😀\ud83d\ude00',
  '\ufeffbom',
  ' ',
  '%00',
  '..%2F..%2F',
  'x'.repeat(10_000),
];
const HUGE_PAGES = ['[9007199254740993,9007199254740994]', '[0,1e308]', '[-1,5]', '["a",1]', '[2147483648,2147483649]', '[true,5]'];

/**
 * A URL carries only UTF-8, so a lone surrogate cannot arrive in a path or query value (its WTF-8
 * bytes decode to something else); NUL can. In JSON (bodies, JSON query parameters) both can.
 */
const unstorableIn = (part: Field['part'] | 'body', value: string) => part === 'body' || part === 'queryJson' || value.includes('\u0000');

interface Attack {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  queryJson: Record<string, Record<string, unknown>>;
  body: unknown;
  contentType?: string;
  rawPayload?: string;
}

describe.each(testDatabases())('every endpoint against hostile input on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  let known: { id: number; email: string; mb: string; site: number; vimeo: string };

  beforeAll(async () => {
    database = await open();
    await seedDemoData(database, { clients: 60, videos: 20, now: new Date('2026-11-20T10:00:00Z') });
    app = await createTestApp(database, {
      env: {
        APP_API_KEY: KEYS.app,
        REVENUECAT_WEBHOOK_AUTH: KEYS.webhook,
        SEARCH_APP_ID: KEYS.searchApp,
        SEARCH_API_KEY: KEYS.search,
        // Thousands of attacks from one address: the limiters (tested on their own) would answer 429 first.
        APP_RATE_LIMIT_PER_MINUTE: '100000',
        APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '100000',
      },
    });
    cookie = await signIn(app);
    const [client] = await database.query<{ id: number; email_address: string; mb_client_id: string; mb_site_id: number }>(
      'SELECT id, email_address, mb_client_id, mb_site_id FROM clients WHERE mb_client_id IS NOT NULL AND email_address IS NOT NULL ORDER BY id LIMIT 1',
    );
    const [video] = await database.query<{ vimeo_video_id: string }>('SELECT vimeo_video_id FROM videos WHERE vimeo_video_id IS NOT NULL ORDER BY id LIMIT 1');
    known = { id: Number(client!.id), email: client!.email_address, mb: client!.mb_client_id, site: Number(client!.mb_site_id), vimeo: video!.vimeo_video_id };
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const routes = () => app.routeTable.filter((r) => !['HEAD', 'OPTIONS'].includes(r.method) && !SKIP.has(`${r.method} ${r.url}`));
  const hasBody = (method: string) => !['GET', 'DELETE'].includes(method);

  /** Values a real caller would send, tried in order against the field's schema: the request then gets past its other fields. */
  function candidates(field: Field): unknown[] {
    const name = field.path.join('.').toLowerCase();
    const tomorrow = new Date(app.clock.now().getTime() + 86_400_000).toISOString();
    const named = name.includes('email')
      ? [known.email]
      : /mb_?client_?id/.test(name)
        ? [known.mb]
        : name.includes('site')
          ? [String(known.site), known.site]
          : name.includes('vimeo')
            ? [known.vimeo]
            : name.includes('index')
              ? ['Customers']
              : [];
    return [...named, known.id, 1, 3, String(known.id), 'add', tomorrow, 'Morning Mobility', true, 'x', [], {}];
  }

  /** A request every field of which its schema takes, so an attack on one field is the only thing wrong. */
  function baseRequest(fields: Field[]): Attack {
    const request: Attack = { params: {}, query: {}, queryJson: {}, body: {} };
    for (const field of fields) {
      if (field.part === 'queryJson' || (isOptional(field) && field.part !== 'params')) continue;
      const value = sampleValue(field, candidates(field));
      if (value === undefined) continue;
      if (field.part === 'params') request.params[field.name] = value;
      else if (field.part === 'query') request.query[field.name] = value;
      else request.body = withValue(request.body as Record<string, unknown>, field.path, value);
    }
    return request;
  }

  function withAttack(base: Attack, field: Field, value: unknown): Attack {
    const request: Attack = { ...base, params: { ...base.params }, query: { ...base.query }, queryJson: { ...base.queryJson } };
    if (field.part === 'params') request.params[field.name] = value;
    else if (field.part === 'query') request.query[field.name] = value;
    else if (field.part === 'queryJson') request.queryJson[field.name] = withValue({}, field.path, value);
    else request.body = withValue((base.body as Record<string, unknown> | undefined) ?? {}, field.path, value);
    return request;
  }

  async function send(route: { method: string; url: string }, request: Attack, withBody = hasBody(route.method)) {
    const path = route.url
      .replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => encode(asText(request.params[name] ?? '1')))
      .replace(/\*/g, encode(asText(request.params['*'] ?? 'x')));
    const query = [
      // A repeated key is how a query string sends an array; a one-element array goes as its JSON text.
      ...Object.entries(request.query).flatMap(([key, value]) =>
        (Array.isArray(value) && value.length > 1 ? value : [value]).map((item) => `${key}=${encode(asText(item))}`),
      ),
      ...Object.entries(request.queryJson).map(([key, value]) => `${key}=${encode(JSON.stringify(value))}`),
      `x-algolia-application-id=${KEYS.searchApp}`,
    ];
    return app.inject({
      method: route.method as 'GET',
      url: `${path}?${query.join('&')}`,
      headers: {
        cookie,
        'x-app-key': KEYS.app,
        authorization: KEYS.webhook,
        'x-algolia-api-key': KEYS.search,
        ...(withBody ? { 'content-type': request.contentType ?? 'application/json' } : {}),
      },
      payload: withBody ? (request.rawPayload ?? JSON.stringify(request.body ?? {})) : undefined,
    });
  }

  /** Sends every attack of a route; problems name the route, field and value. */
  async function attackRoute(
    route: { method: string; url: string; schema?: unknown; scrubsText: boolean },
    attacks: { field: string; value: unknown; request: Attack; mustRefuse: boolean }[],
    problems: string[],
  ) {
    const before = await fingerprint(database);
    let acceptedWrite = false;
    for (const attack of attacks) {
      const response = await send(route, attack.request);
      const where = `${route.method} ${route.url} ${attack.field}=${JSON.stringify(attack.value)?.slice(0, 40)}`;
      if (response.statusCode >= 500) problems.push(`${where} → ${response.statusCode} ${response.body.slice(0, 200)}`);
      if (response.statusCode >= 400) {
        const message = (() => {
          try {
            return response.json().message;
          } catch {
            return undefined;
          }
        })();
        if (typeof message !== 'string' || !message) problems.push(`${where} → ${response.statusCode} without a message`);
      } else {
        if (attack.mustRefuse) problems.push(`${where} → ${response.statusCode}: accepted`);
        if (route.method !== 'GET' || STATE_CHANGING_GETS.has(route.url)) acceptedWrite = true;
      }
    }
    if (!acceptedWrite && (await fingerprint(database)) !== before) problems.push(`${route.method} ${route.url}: refused requests changed stored data`);
  }

  it('refuses NUL, unpaired surrogates and non-integer ids in every field with a 4xx that explains, and stores nothing', { timeout: 900_000 }, async () => {
    const all = routes();
    expect(all.length).toBeGreaterThan(40);
    const problems: string[] = [];
    for (const route of all) {
      const fields = routeFields(route.url, route.schema as Record<string, unknown> | undefined);
      const base = baseRequest(fields);
      const attacks = [];
      // An undeclared query parameter is parsed too, and must not get through either.
      for (const field of [...fields, { part: 'query' as const, name: 'undeclared', path: ['undeclared'], schema: undefined as never }]) {
        const label = `${field.part}.${field.part === 'queryJson' ? `${field.name}.` : ''}${field.path.join('.')}`;
        for (const value of UNSTORABLE_TEXT)
          attacks.push({ field: label, value, request: withAttack(base, field, value), mustRefuse: !route.scrubsText && unstorableIn(field.part, value) });
        if (field.schema && isWholeNumberField(field)) {
          for (const value of NOT_WHOLE_NUMBERS) {
            // Sent as a repeated key, [7, 9] is two values of a field that takes a list of them.
            if (Array.isArray(value) && value.length > 1 && takesList(field)) continue;
            attacks.push({ field: label, value, request: withAttack(base, field, value), mustRefuse: !route.scrubsText });
          }
        }
      }
      if (hasBody(route.method)) {
        for (const value of UNSTORABLE_TEXT) attacks.push({ field: 'body', value, request: { ...base, body: value }, mustRefuse: !route.scrubsText });
      }
      await attackRoute(route, attacks, problems);
    }
    expect(problems).toEqual([]);
  });

  it('answers id confusions, odd Unicode, huge pages and wrong content types without a 5xx', { timeout: 900_000 }, async () => {
    const problems: string[] = [];
    for (const route of routes()) {
      const fields = routeFields(route.url, route.schema as Record<string, unknown> | undefined);
      const base = baseRequest(fields);
      const attacks = [];
      for (const field of fields) {
        const label = `${field.part}.${field.path.join('.')}`;
        for (const value of [...ID_CONFUSIONS, ...ODD_TEXT]) attacks.push({ field: label, value, request: withAttack(base, field, value), mustRefuse: false });
      }
      for (const field of fields.filter((f) => f.part === 'query')) {
        for (const value of HUGE_PAGES) attacks.push({ field: `query.${field.name}`, value, request: withAttack(base, field, value), mustRefuse: false });
      }
      if (hasBody(route.method)) {
        const form = new URLSearchParams(Object.entries((base.body as Record<string, unknown>) ?? {}).map(([key, value]) => [key, asText(value)])).toString();
        attacks.push({
          field: 'content-type',
          value: 'form',
          request: { ...base, contentType: 'application/x-www-form-urlencoded', rawPayload: form },
          mustRefuse: !READS_ANY_CONTENT_TYPE(route.url),
        });
        for (const contentType of [
          'text/plain',
          'multipart/form-data; boundary=x',
          'application/xml',
          'application/json; charset=utf-16',
          'application/octet-stream',
        ]) {
          attacks.push({
            field: 'content-type',
            value: contentType,
            request: { ...base, contentType, rawPayload: JSON.stringify(base.body ?? {}) },
            mustRefuse: false,
          });
        }
        for (const rawPayload of ['[]', 'null', '123', '"text"', '{"a":', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}']) {
          attacks.push({ field: 'body', value: rawPayload, request: { ...base, rawPayload }, mustRefuse: false });
        }
      }
      await attackRoute(route, attacks, problems);
      // Form bodies are for the sign-in pages: anywhere else the answer is 415.
      if (hasBody(route.method) && !READS_ANY_CONTENT_TYPE(route.url)) {
        const response = await send(route, { ...base, contentType: 'application/x-www-form-urlencoded', rawPayload: 'a=1' });
        if (response.statusCode !== 415 && response.statusCode !== 401)
          problems.push(`${route.method} ${route.url}: form body → ${response.statusCode}, not 415`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('refuses a body nested deeper than the limit with a 400 naming it, on every route that reads a body', { timeout: 300_000 }, async () => {
    const tooDeep = [`${'['.repeat(10_000)}${']'.repeat(10_000)}`, `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`];
    const problems: string[] = [];
    const bodied = routes().filter((route) => route.method !== 'GET');
    expect(bodied.length).toBeGreaterThan(20);
    for (const route of bodied) {
      const base = baseRequest(routeFields(route.url, route.schema as Record<string, unknown> | undefined));
      for (const rawPayload of tooDeep) {
        // A DELETE's body is read too when it says it is JSON.
        const response = await send(route, { ...base, rawPayload }, true);
        const message = (response.json() as { message?: string }).message;
        // A route taking only small bodies refuses the 20 KB one for its size first.
        if (response.statusCode === 413 && rawPayload.length > 10_000) continue;
        if (response.statusCode !== 400 || message !== `Invalid request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`)
          problems.push(`${route.method} ${route.url} ${rawPayload.slice(0, 12)} → ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers random and malformed input with no 5xx, explains every 4xx, and stores nothing from a rejected request', { timeout: 900_000 }, async () => {
    const anyJson = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }),
      fc.constantFrom({}, [], null, '', 'x'.repeat(70_000), { email: null, mb_client_id: [] }, { client_id: -1, new_vod_access_level: 1e308 }),
    );
    const segment = fc.oneof(
      fc.string({ maxLength: 40, unit: 'binary' }),
      fc.constantFrom('0', '-1', '1', '99999999999999999999', 'NaN', '%00', '..', 'null', "1' OR '1'='1", '💥'.repeat(10)),
      fc.integer().map(String),
    );
    const query = fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.oneof(fc.string({ maxLength: 30, unit: 'binary' }), fc.integer().map(String)), {
      maxKeys: 5,
    });
    const problems: string[] = [];
    for (const route of routes()) {
      const samples = fc.sample(fc.tuple(fc.array(segment, { minLength: 3, maxLength: 3 }), query, anyJson, fc.boolean()), {
        numRuns: RUNS_PER_ROUTE,
        seed: 20261122,
      });
      const attacks = samples.map(([segments, qs, body, rawText]) => {
        const names = [...route.url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map(([, name]) => name!);
        const params = Object.fromEntries([...names, '*'].map((name, i) => [name, segments[i % segments.length]]));
        const request: Attack = {
          params,
          query: qs,
          queryJson: {},
          body,
          ...(rawText ? { contentType: 'text/plain', rawPayload: `${String(JSON.stringify(body)).slice(0, 5000)}}{` } : {}),
        };
        return { field: 'random', value: body, request, mustRefuse: false };
      });
      await attackRoute(route, attacks, problems);
    }
    expect(problems).toEqual([]);
  });
});
