import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { CLIENT_HISTORY_MAX, HOLDING_MAX_PER_ADDRESS, HOLDING_MAX_PER_EMAIL, HOLDING_MAX_ROWS } from '../../server/src/appReports/bounds';
import { insertClient } from '../support/clientFixtures';
import { testDatabases } from '../support/databases';
import { createTestApp, testClock } from '../support/server';

// docs/security-app.md: what the public app endpoints can make the server keep is bounded.
const KEY = 'app-key-for-the-tests-0123';
const START = new Date('2026-11-22T12:00:00Z');
// Five times the holding bound. 10,000 passed too, but took 63-290 s on PGlite and 99 s on
// PostgreSQL on the shared 2-core test machine (each report is a transaction of four statements).
const FLOOD = 5 * HOLDING_MAX_ROWS;

describe.each(testDatabases())('bounded storage from the app endpoints on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock(START);

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, {
      clock,
      env: { APP_API_KEY: KEY, APP_RATE_LIMIT_PER_MINUTE: '100000', APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '100000' },
    });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    clock.set(START);
    await database.execScript('DELETE FROM debug_records; DELETE FROM clients;');
  });

  const report = (body: Record<string, unknown>, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/api/app/v1/debug-info', headers: { 'x-app-key': KEY }, remoteAddress, payload: { platform: 'android', ...body } });
  const count = async (where = 'TRUE') => (await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM debug_records WHERE ${where}`))[0]!.n;
  const randomEmail = () => `${Math.random().toString(36).slice(2)}@flood.test`;

  it(`keeps at most ${HOLDING_MAX_ROWS} reports for unknown clients after ${FLOOD} reports with random e-mails`, async () => {
    for (let i = 0; i < FLOOD; i++) {
      const response = await report({ email: randomEmail(), firebase_token_new: `flood-${i}` }, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      expect(response.statusCode).toBe(201);
    }
    expect(await count()).toBe(HOLDING_MAX_ROWS);
    // The newest are the ones kept.
    const [newest] = await database.query<{ firebase_token_new: string }>('SELECT firebase_token_new FROM debug_records ORDER BY id DESC LIMIT 1');
    expect(newest!.firebase_token_new).toBe(`flood-${FLOOD - 1}`);
  }, 600_000);

  it(`keeps at most ${HOLDING_MAX_PER_ADDRESS} held reports from one address and ${HOLDING_MAX_PER_EMAIL} for one unknown e-mail`, async () => {
    for (let i = 0; i < HOLDING_MAX_PER_ADDRESS * 3; i++) await report({ email: randomEmail(), firebase_token_new: `one-address-${i}` }, '198.51.100.9');
    expect(await count()).toBe(HOLDING_MAX_PER_ADDRESS);
    for (let i = 0; i < HOLDING_MAX_PER_EMAIL * 3; i++)
      await report({ email: 'Someone@Later.test', firebase_token_new: `one-email-${i}` }, `198.51.100.${100 + i}`);
    expect(await count("lower(email) = 'someone@later.test'")).toBe(HOLDING_MAX_PER_EMAIL);
  });

  it('drops held reports for unknown clients once they are older than the holding time', async () => {
    await report({ email: 'early@later.test', firebase_token_new: 'early' }, '198.51.100.1');
    clock.advance(8 * 24 * 60 * 60_000);
    await report({ email: 'fresh@later.test', firebase_token_new: 'fresh' }, '198.51.100.2');
    const rows = await database.query<{ firebase_token_new: string }>('SELECT firebase_token_new FROM debug_records');
    expect(rows).toEqual([{ firebase_token_new: 'fresh' }]);
  });

  it(`keeps a known client's newest ${CLIENT_HISTORY_MAX} reports and the one that holds its device`, async () => {
    const ada = await insertClient(database, { first_name: 'Ada', email_address: 'ada@example.test' });
    await report({ email: 'ada@example.test', platform: 'ios', firebase_token_new: 'ada-iphone' }, '203.0.113.7');
    for (let i = 0; i < CLIENT_HISTORY_MAX + 20; i++) {
      clock.advance(1000);
      await report({ email: 'ada@example.test', platform: 'ios', firebase_token_new: `intruder-${i}` }, `198.51.100.${i % 200}`);
    }
    expect(await count(`client_id = ${ada}`)).toBe(CLIENT_HISTORY_MAX);
    expect((await app.push.tokensFor(ada)).tokens).toEqual(['ada-iphone']);
  });

  it('refuses more reports from one address than APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE, whatever the e-mails', async () => {
    const limited = await createTestApp(database, { clock, env: { APP_API_KEY: KEY, APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '3' } });
    try {
      const send = (remoteAddress: string) =>
        limited.inject({ method: 'POST', url: '/api/app/v1/debug-info', headers: { 'x-app-key': KEY }, remoteAddress, payload: { email: randomEmail() } });
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await send('198.51.100.77'));
      expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 429]);
      expect(answers[3]!.json().message).toMatch(/Too many reports from this address: at most 3 a minute; retry in 20 s/);
      expect(answers[3]!.headers['retry-after']).toBe('20');
      expect((await send('198.51.100.78')).statusCode).toBe(201);
      expect(await count()).toBe(4);
    } finally {
      await limited.close();
    }
  });
});
