import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { openDatabase, type Database } from '../../server/src/db/client';
import { upsertStaffUser } from '../../server/src/staff/accounts';
import { testDatabases } from '../support/databases';
import { createTestApp, STAFF, testClock } from '../support/server';

const attempt = (app: FastifyInstance, remoteAddress: string, fields: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url: '/login',
    remoteAddress,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

const wrong = (i: number, email = STAFF.email) => ({ email, password: `wrong-${i}` });
const statuses = (answers: LightMyRequestResponse[]) => answers.map((a) => a.statusCode);
const tally = (answers: LightMyRequestResponse[]) =>
  statuses(answers).reduce<Record<number, number>>((all, status) => ({ ...all, [status]: (all[status] ?? 0) + 1 }), {});
const sessionCookie = (answer: LightMyRequestResponse) => answer.cookies.find((c) => c.name === 'studio_session');

describe.each(testDatabases())('sign-in throttling on $name', ({ name, open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock();
  let hour = 0;

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    await upsertStaffUser(app.database, { ...STAFF, nickname: 'Coach', role: 'owner' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  // Every test starts an hour after the last one: nothing one test counted is still in the window.
  beforeEach(() => {
    hour += 1;
    clock.set(new Date(Date.UTC(2026, 10, 22, hour)));
  });

  const failedSignInsAudited = async (email: string) =>
    (
      await database.query<{ count: number }>(`SELECT count(*)::int AS count FROM audit_log WHERE action = 'auth.sign_in_failed' AND staff_email = $1`, [email])
    )[0]!.count;

  it('checks at most 10 of 50 parallel wrong passwords, then lets the right one in from another address', async () => {
    const burst = await Promise.all(Array.from({ length: 50 }, (_, i) => attempt(app, '203.0.113.10', wrong(i))));
    expect(tally(burst)).toEqual({ 401: 10, 429: 40 });
    for (const refused of burst.filter((a) => a.statusCode === 429)) {
      expect(refused.body).toContain('Too many failed sign-in attempts. Try again in 3 minutes.');
      expect(refused.headers['retry-after']).toBe('180');
      expect(sessionCookie(refused)).toBeUndefined();
    }
    const owner = await attempt(app, '192.0.2.44', STAFF);
    expect(owner.statusCode).toBe(303);
    expect(sessionCookie(owner)?.value).toBeTruthy();
  });

  it('refuses the right password inside a burst of 200 once the limit is used up', async () => {
    const email = 'burst@studio.test';
    await upsertStaffUser(app.database, { email, password: 'the-right-one', role: 'owner' });
    const fields = Array.from({ length: 200 }, (_, i) => (i === 199 ? { email, password: 'the-right-one' } : wrong(i, email)));
    const burst = await Promise.all(fields.map((f) => attempt(app, '203.0.113.11', f)));
    expect(tally(burst)).toEqual({ 401: 10, 429: 190 });
    expect(burst[199]!.statusCode).toBe(429);
    expect(burst.some((a) => sessionCookie(a))).toBe(false);
    // Only the checked failures are audited, not every refused request.
    expect(await failedSignInsAudited(email)).toBe(10);
  });

  it("does not let a stranger's failures lock the staff member out of their own address", async () => {
    for (let i = 0; i < 10; i++) expect((await attempt(app, '203.0.113.12', wrong(i))).statusCode).toBe(401);
    expect((await attempt(app, '203.0.113.12', STAFF)).statusCode).toBe(429);
    expect((await attempt(app, '192.0.2.45', STAFF)).statusCode).toBe(303);
    // Signing in elsewhere does not give the stranger's address its tries back.
    expect((await attempt(app, '203.0.113.12', wrong(10))).statusCode).toBe(429);
  });

  it('holds the limit across two server instances on one database', async () => {
    const second = name === 'postgres' ? await openDatabase({ url: postgresUrl(database), dataDir: 'unused', poolSize: 5 }) : database;
    const otherApp = await createTestApp(second, { clock });
    try {
      const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(i % 2 ? otherApp : app, '203.0.113.13', wrong(i))));
      expect(tally(burst)).toEqual({ 401: 10, 429: 30 });
    } finally {
      await otherApp.close();
      if (second !== database) await second.close();
    }
  });

  it('limits one address to 50 checked failures across accounts, without locking the accounts elsewhere', async () => {
    const spray = await Promise.all(Array.from({ length: 60 }, (_, i) => attempt(app, '203.0.113.14', wrong(i, `guess${i}@studio.test`))));
    expect(tally(spray)).toEqual({ 401: 50, 429: 10 });
    const fresh = await attempt(app, '203.0.113.14', STAFF);
    expect(fresh.statusCode).toBe(429);
    expect((await attempt(app, '192.0.2.46', STAFF)).statusCode).toBe(303);
  });

  it('answers an unknown e-mail exactly like a known one: same counting, message and Retry-After', async () => {
    const run = async (email: string, address: string) => {
      const answers = [];
      for (let i = 0; i < 12; i++) answers.push(await attempt(app, address, wrong(i, email)));
      return answers.map((a) => ({
        status: a.statusCode,
        retryAfter: a.headers['retry-after'],
        body: a.body.replaceAll(email, 'EMAIL').replace(/nonce="[^"]+"/g, ''),
      }));
    };
    const known = await run(STAFF.email, '203.0.113.15');
    const unknown = await run('nobody-here@studio.test', '203.0.113.16');
    expect(known.map((a) => a.status)).toEqual([...Array(10).fill(401), 429, 429]);
    expect(unknown).toEqual(known);
  });

  it('gives the tries back once the window has passed', async () => {
    for (let i = 0; i < 10; i++) await attempt(app, '203.0.113.17', wrong(i));
    clock.advance(60_000);
    const refused = await attempt(app, '203.0.113.17', STAFF);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('120');
    expect(refused.body).toContain('Try again in 2 minutes.');
    clock.advance(2 * 60_000);
    expect((await attempt(app, '203.0.113.17', STAFF)).statusCode).toBe(303);
  });

  it("forgives the staff member's own mistakes once they sign in, and does not count the sign-in", async () => {
    for (let i = 0; i < 9; i++) expect((await attempt(app, '192.0.2.47', wrong(i))).statusCode).toBe(401);
    expect((await attempt(app, '192.0.2.47', STAFF)).statusCode).toBe(303);
    const again = [];
    for (let i = 0; i < 11; i++) again.push((await attempt(app, '192.0.2.47', wrong(i))).statusCode);
    expect(again).toEqual([...Array(10).fill(401), 429]);
  });

  it('counts other spellings of the same e-mail and of the same address together', async () => {
    const spellings = [STAFF.email, STAFF.email.toUpperCase(), `  ${STAFF.email}\t`, 'Coach@Studio.TEST'];
    const addresses = ['198.51.100.20', '::ffff:198.51.100.20'];
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await attempt(app, addresses[i % 2]!, wrong(i, spellings[i % 4]!)));
    expect(statuses(answers)).toEqual(Array(10).fill(401));
    expect((await attempt(app, '198.51.100.20', STAFF)).statusCode).toBe(429);
    expect((await attempt(app, '::ffff:198.51.100.20', { ...STAFF, email: 'COACH@studio.test' })).statusCode).toBe(429);
  });

  it('counts the addresses of one IPv6 /64 network together', async () => {
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await attempt(app, `2001:db8:7:1::${(i + 1).toString(16)}`, wrong(i)));
    expect(statuses(answers)).toEqual(Array(10).fill(401));
    expect((await attempt(app, '2001:DB8:7:1:ffff:ffff:ffff:ffff', STAFF)).statusCode).toBe(429);
    expect((await attempt(app, '2001:db8:7:2::1', STAFF)).statusCode).toBe(303);
  });

  it('refuses an e-mail with a NUL or a field of the wrong type with a 400 naming the field, and counts nothing', async () => {
    const nul = await attempt(app, '198.51.100.21', { email: `coach\u0000@studio.test`, password: 'x' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().message).toMatch(/email/);
    const array = await app.inject({
      method: 'POST',
      url: '/login',
      remoteAddress: '198.51.100.21',
      payload: 'email=a%40b.test&email=c%40d.test&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(array.statusCode).toBe(400);
    expect(array.json().message).toMatch(/email/);
    const rows = await database.query<{ count: number }>(`SELECT count(*)::int AS count FROM login_failures WHERE ip LIKE '198.51.100.21%'`);
    expect(rows[0]!.count).toBe(0);
    expect((await attempt(app, '198.51.100.21', STAFF)).statusCode).toBe(303);
  });

  it('audits the failure that uses up the last try, and no refused request', async () => {
    const email = 'audited@studio.test';
    for (let i = 0; i < 15; i++) await attempt(app, '203.0.113.18', wrong(i, email));
    const rows = await database.query<{ after: Record<string, unknown> }>(
      `SELECT after FROM audit_log WHERE action = 'auth.sign_in_failed' AND staff_email = $1 ORDER BY id`,
      [email],
    );
    expect(rows).toHaveLength(10);
    expect(rows.slice(0, 9).every((r) => !('limit_reached' in r.after))).toBe(true);
    expect(rows[9]!.after).toMatchObject({ reason: 'unknown account', limit_reached: 'account and address' });
  });
});

function postgresUrl(database: Database): string {
  return (database.pool as unknown as { options: { connectionString: string } }).options.connectionString;
}

describe.each(testDatabases())('behind a reverse proxy on $name', ({ open }) => {
  it('counts the address the proxy saw (TRUST_PROXY=1), not what the client wrote into X-Forwarded-For', async () => {
    const database = await open();
    const app = await createTestApp(database, { env: { TRUST_PROXY: '1' } });
    try {
      await upsertStaffUser(app.database, { ...STAFF, role: 'owner' });
      const viaProxy = (written: string) =>
        app.inject({
          method: 'POST',
          url: '/login',
          remoteAddress: '10.0.0.2',
          payload: new URLSearchParams(wrong(0)).toString(),
          // The proxy appends the address it saw after whatever the client sent.
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `${written}, 198.51.100.7` },
        });
      const answers = [];
      for (let i = 0; i < 12; i++) answers.push(await viaProxy(`203.0.113.${i}`));
      expect(tally(answers)).toEqual({ 401: 10, 429: 2 });
      const failures = await database.query<{ ip: string }>('SELECT DISTINCT ip FROM login_failures');
      expect(failures.map((row) => row.ip)).toEqual(['198.51.100.7']);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
