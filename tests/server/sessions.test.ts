import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { upsertStaffUser } from '../../server/src/staff/accounts';
import { testDatabases } from '../support/databases';
import { createTestApp, STAFF, testClock } from '../support/server';

const OTHER = { email: 'front-desk@studio.test', password: 'another long password' };

describe.each(testDatabases())('my sessions on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock(new Date('2026-11-20T09:00:00Z'));

  const signInWith = async (who: typeof STAFF, userAgent: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/login',
      payload: new URLSearchParams(who).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
    });
    expect(response.statusCode).toBe(303);
    return `studio_session=${response.cookies.find((c) => c.name === 'studio_session')!.value}`;
  };
  const sessions = async (cookie: string) => {
    const response = await app.inject({ method: 'GET', url: '/api/admin/v1/sessions', headers: { cookie } });
    return { status: response.statusCode, rows: response.statusCode === 200 ? (response.json() as Record<string, unknown>[]) : [] };
  };

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    await upsertStaffUser(app.database, { ...STAFF, role: 'owner' });
    await upsertStaffUser(app.database, { ...OTHER, role: 'owner' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('needs a staff session', async () => {
    expect((await sessions('studio_session=nope')).status).toBe(401);
  });

  it("lists only the caller's active sessions, marks this one, and hides the cookie value", async () => {
    const laptop = await signInWith(STAFF, 'Laptop Firefox');
    clock.advance(5 * 60_000);
    const phone = await signInWith(STAFF, 'Phone Safari');
    await signInWith(OTHER, 'Front desk');
    const { rows } = await sessions(phone);
    expect(rows.map((row) => [row.user_agent, row.current, row.ip])).toEqual([
      ['Phone Safari', true, '127.0.0.1'],
      ['Laptop Firefox', false, '127.0.0.1'],
    ]);
    expect(rows[1]).toMatchObject({ created_at: '2026-11-20T09:00:00.000Z', last_seen_at: '2026-11-20T09:00:00.000Z', expires_at: '2026-11-20T09:30:00.000Z' });
    for (const row of rows) {
      expect(laptop).not.toContain(String(row.id));
      expect(phone).not.toContain(String(row.id));
    }
    // The laptop's own view marks the laptop.
    expect((await sessions(laptop)).rows.find((row) => row.current)?.user_agent).toBe('Laptop Firefox');
  });

  it('ends another session: that browser is signed out, this one stays', async () => {
    const desk = await signInWith(STAFF, 'Desk Chrome');
    const tablet = await signInWith(STAFF, 'Tablet');
    const target = (await sessions(desk)).rows.find((row) => row.user_agent === 'Tablet')!;
    const ended = await app.inject({ method: 'DELETE', url: `/api/admin/v1/sessions/${target.id}`, headers: { cookie: desk } });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ id: target.id, user_agent: 'Tablet', current: false });
    expect((await sessions(tablet)).status).toBe(401);
    expect((await sessions(desk)).status).toBe(200);
    const again = await app.inject({ method: 'DELETE', url: `/api/admin/v1/sessions/${target.id}`, headers: { cookie: desk } });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('That session has already ended.');
  });

  it("cannot end another staff member's session", async () => {
    const mine = await signInWith(STAFF, 'Mine');
    const theirs = await signInWith(OTHER, 'Theirs');
    const theirId = (await sessions(theirs)).rows.find((row) => row.current)!.id;
    const response = await app.inject({ method: 'DELETE', url: `/api/admin/v1/sessions/${theirId}`, headers: { cookie: mine } });
    expect(response.statusCode).toBe(404);
    expect((await sessions(theirs)).status).toBe(200);
  });

  it('ending the current session signs this browser out and clears its cookie', async () => {
    const cookie = await signInWith(STAFF, 'Kiosk');
    const current = (await sessions(cookie)).rows.find((row) => row.current)!;
    const response = await app.inject({ method: 'DELETE', url: `/api/admin/v1/sessions/${current.id}`, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === 'studio_session')?.value).toBe('');
    expect((await sessions(cookie)).status).toBe(401);
  });

  it('ends every other session at once and records it in the audit log', async () => {
    const keep = await signInWith(STAFF, 'Keep me');
    const response = await app.inject({ method: 'POST', url: '/api/admin/v1/sessions/end-others', headers: { cookie: keep } });
    expect(response.statusCode).toBe(200);
    expect(response.json().ended).toBeGreaterThan(0);
    expect((await sessions(keep)).rows.map((row) => row.user_agent)).toEqual(['Keep me']);
    const audit = await app.inject({
      method: 'GET',
      url: `/api/admin/v1/audit?filter=${encodeURIComponent('{"action":"session.end"}')}`,
      headers: { cookie: keep },
    });
    expect(audit.json().length).toBe(3);
  });

  it('drops sessions idle for 30 minutes from the list', async () => {
    const idle = await signInWith(OTHER, 'Idle');
    clock.advance(20 * 60_000);
    const active = await signInWith(OTHER, 'Active');
    clock.advance(11 * 60_000);
    expect((await sessions(active)).rows.map((row) => row.user_agent)).toEqual(['Active']);
    expect((await sessions(idle)).status).toBe(401);
  });

  it('a session ended on one server instance stops working on another within two seconds', async () => {
    const other = await createTestApp(database, { clock });
    try {
      const desk = await signInWith(OTHER, 'Firefox at the front desk');
      const isAuthenticated = async (instance: FastifyInstance) =>
        (await instance.inject({ method: 'GET', url: '/api/client/v1/vod-access-levels', headers: { cookie: desk } })).statusCode;
      expect(await isAuthenticated(other)).toBe(200);
      const [current] = (await sessions(desk)).rows.filter((row) => row.current);
      expect((await app.inject({ method: 'DELETE', url: `/api/admin/v1/sessions/${current!.id}`, headers: { cookie: desk } })).statusCode).toBe(200);
      expect(await isAuthenticated(app)).toBe(401);
      clock.advance(2_100);
      expect(await isAuthenticated(other)).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('refuses a malformed session id', async () => {
    const cookie = await signInWith(STAFF, 'Any');
    const response = await app.inject({ method: 'DELETE', url: '/api/admin/v1/sessions/not%20an%20id', headers: { cookie } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('must be a session id');
  });
});
