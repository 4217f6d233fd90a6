import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Role } from '@contract/permissions';
import type { StaffAccount } from '@contract/staff';
import type { Database } from '../../server/src/db/client';
import { ensureStaffAccount } from '../../server/src/staff/accounts';
import { findStaffByEmail } from '../../server/src/staff/queries';
import { LAST_OWNER, takesLastOwner } from '../../server/src/staff/admin';
import { runMigrations } from '../../server/src/db/migrate';
import { dumpLines, restoreLines, withSnapshot, type DumpLine } from '../../server/src/db/dump';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { insertClient } from '../support/clientFixtures';

/** An audit_log row as the tests read it. */
interface AuditRow {
  id: number;
  action: string;
  staff_email: string | null;
  target_type: string;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const OWNER = { email: 'owner@studio.test', password: 'owner-password-1', role: 'owner' as Role };

describe('the last-owner rule', () => {
  it('refuses only a change that takes the only active owner away', () => {
    const owner = { role: 'owner', status: 'active' } as const;
    expect(takesLastOwner(owner, { role: 'manager', status: 'active' }, 0)).toBe(true);
    expect(takesLastOwner(owner, { role: 'owner', status: 'disabled' }, 0)).toBe(true);
    expect(takesLastOwner(owner, { role: 'manager', status: 'active' }, 1)).toBe(false);
    expect(takesLastOwner(owner, owner, 0)).toBe(false);
    expect(takesLastOwner({ role: 'owner', status: 'disabled' }, { role: 'manager', status: 'disabled' }, 0)).toBe(false);
    expect(takesLastOwner({ role: 'manager', status: 'active' }, { role: 'content', status: 'active' }, 0)).toBe(false);
  });
});

describe.each(testDatabases())('staff management on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let owner: string;
  let clientId: number;

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock: testClock() });
    owner = await signIn(app, OWNER);
    clientId = await insertClient(database, {
      first_name: 'Rhea',
      last_name: 'Roles',
      email_address: 'rhea@example.test',
      mb_client_id: '71',
      mb_site_id: -99,
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const call = (method: string, url: string, cookie: string, body?: unknown) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  /** POST /login as a browser would; signIn() would set the password first. */
  const login = (email: string, password: string) =>
    app.inject({
      method: 'POST',
      url: '/login',
      payload: new URLSearchParams({ email, password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const add = async (email: string, role: Role) => {
    const response = await call('POST', '/api/admin/v1/staff', owner, { email, role });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as StaffAccount & { password: string };
  };
  const override = (cookie: string) =>
    call('POST', '/api/client/v1/client-details/update-access-level', cookie, {
      client_id: clientId,
      new_vod_access_level: 3,
      adminOverrideDate: '2026-12-01T00:00:00.000Z',
    });

  it('adds a staff member with a role and a generated password shown once, which signs in', async () => {
    const created = await add('New.Desk@Studio.test', 'front_desk');
    expect(created).toMatchObject({ email: 'new.desk@studio.test', role: 'front_desk', status: 'active', last_sign_in_at: null, has_password: true });
    expect(created.password.length).toBeGreaterThanOrEqual(16);
    const desk = await signIn(app, { email: 'new.desk@studio.test', password: created.password });
    const me = await call('GET', '/api/isAuthenticated', desk);
    expect(me.json().user).toMatchObject({ role: 'front_desk', permissions: ['clients.read', 'clients.push', 'clients.notes', 'dashboard.read', 'signed_in'] });
    // Shown once: no later answer carries it, and the audit entry names the role, never the password.
    const again = await call('GET', `/api/admin/v1/staff/${created.id}`, owner);
    expect(again.json()).not.toHaveProperty('password');
    expect(again.json().last_sign_in_at).not.toBeNull();
    const [entry] = await app.database.query<AuditRow>("SELECT * FROM audit_log WHERE action = 'staff.create'");
    expect(entry).toMatchObject({ staff_email: OWNER.email, target_id: String(created.id), after: { email: 'new.desk@studio.test', role: 'front_desk' } });
    expect(JSON.stringify(entry)).not.toContain(created.password);
  });

  it('refuses a taken e-mail (409), an unknown role and a bad e-mail (400, naming the field)', async () => {
    expect((await call('POST', '/api/admin/v1/staff', owner, { email: 'NEW.desk@studio.test', role: 'content' })).statusCode).toBe(409);
    const badRole = await call('POST', '/api/admin/v1/staff', owner, { email: 'x@studio.test', role: 'janitor' });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().message).toContain('body.role');
    const badEmail = await call('POST', '/api/admin/v1/staff', owner, { email: 'not an address', role: 'content' });
    expect(badEmail.json().errors).toEqual([expect.objectContaining({ path: 'body.email' })]);
  });

  it('lists staff with role, status and last sign-in, filtered and sorted, total in Content-Range', async () => {
    await add('content.lister@studio.test', 'content');
    const all = await call('GET', '/api/admin/v1/staff?sort=["email","ASC"]&range=[0,24]', owner);
    const rows = all.json() as StaffAccount[];
    expect(rows.map((row) => row.email)).toEqual([...rows.map((row) => row.email)].sort());
    expect(all.headers['content-range']).toBe(`staff 0-${rows.length - 1}/${rows.length}`);
    expect(rows.find((row) => row.email === OWNER.email)).toMatchObject({ role: 'owner', status: 'active', last_sign_in_at: expect.any(String) });
    const content = await call('GET', `/api/admin/v1/staff?filter=${encodeURIComponent('{"role":"content"}')}`, owner);
    expect((content.json() as StaffAccount[]).map((row) => row.email)).toEqual(['content.lister@studio.test']);
  });

  it('changes a role and the new role counts from the next request of an open session', async () => {
    const created = await add('desk.promoted@studio.test', 'front_desk');
    const desk = await signIn(app, { email: created.email, password: created.password });
    expect((await override(desk)).statusCode).toBe(403);
    const changed = await call('PUT', `/api/admin/v1/staff/${created.id}`, owner, { ...created, role: 'manager' });
    expect(changed.json()).toMatchObject({ role: 'manager', status: 'active' });
    expect((await override(desk)).statusCode).toBe(200);
    const [entry] = (await app.database.query<AuditRow>("SELECT * FROM audit_log WHERE action = 'staff.update'")).filter(
      (row) => row.target_id === String(created.id),
    );
    expect(entry).toMatchObject({ before: { email: created.email, role: 'front_desk' }, after: { email: created.email, role: 'manager' } });
  });

  it('disables an account: its session ends at once, it cannot sign in, and enabling lets it back', async () => {
    const created = await add('leaving@studio.test', 'front_desk');
    const session = await signIn(app, { email: created.email, password: created.password });
    expect((await call('GET', '/api/admin/v1/sessions', session)).statusCode).toBe(200);
    const disabled = await call('PUT', `/api/admin/v1/staff/${created.id}`, owner, { status: 'disabled' });
    expect(disabled.json()).toMatchObject({ status: 'disabled' });
    expect((await call('GET', '/api/admin/v1/sessions', session)).statusCode).toBe(401);
    const refused = await login(created.email, created.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('This account is disabled');
    expect(refused.cookies.find((cookie) => cookie.name === 'studio_session')).toBeUndefined();
    // A wrong password says nothing about the account being disabled.
    const guess = await login(created.email, 'wrong-guess-1');
    expect(guess.body).not.toMatch(/account is disabled/i);
    await call('PUT', `/api/admin/v1/staff/${created.id}`, owner, { status: 'active' });
    expect(await signIn(app, { email: created.email, password: created.password })).toMatch(/^studio_session=/);
  });

  it('resets a password: a new one shown once, the old one and every session gone', async () => {
    const created = await add('forgetful@studio.test', 'content');
    const session = await signIn(app, { email: created.email, password: created.password });
    const reset = await call('POST', `/api/admin/v1/staff/${created.id}/reset-password`, owner);
    const { password } = reset.json() as { password: string };
    expect(password).not.toBe(created.password);
    expect((await call('GET', '/api/admin/v1/sessions', session)).statusCode).toBe(401);
    expect((await login(created.email, created.password)).statusCode).toBe(401);
    expect((await login(created.email, password)).statusCode).toBe(303);
    const own = await call('POST', `/api/admin/v1/staff/${(await findStaffByEmail(app.database, OWNER.email))!.id}/reset-password`, owner);
    expect(own.statusCode).toBe(400);
  });

  it('never leaves the studio without an active owner', async () => {
    const me = (await findStaffByEmail(app.database, OWNER.email))!;
    for (const change of [{ role: 'manager' }, { status: 'disabled' }]) {
      const refused = await call('PUT', `/api/admin/v1/staff/${me.id}`, owner, change);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ message: LAST_OWNER });
    }
    expect((await findStaffByEmail(app.database, OWNER.email))!.role).toBe('owner');
  });

  it('keeps one owner when two owners demote each other at the same moment', async () => {
    const second = await add('second.owner@studio.test', 'owner');
    const secondCookie = await signIn(app, { email: second.email, password: second.password });
    const me = (await findStaffByEmail(app.database, OWNER.email))!;
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([
        call('PUT', `/api/admin/v1/staff/${second.id}`, owner, { role: 'manager' }),
        call('PUT', `/api/admin/v1/staff/${me.id}`, secondCookie, { status: 'disabled' }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const owners = await app.database.query("SELECT id FROM staff_users WHERE role = 'owner' AND disabled_at IS NULL");
      expect(owners).toHaveLength(1);
      // Put both back for the next round (as the system, like npm run staff).
      await app.database.query("UPDATE staff_users SET role = 'owner', disabled_at = NULL WHERE id = $1", [second.id]);
      await app.database.query("UPDATE staff_users SET role = 'owner', disabled_at = NULL WHERE id = $1", [me.id]);
      app.sessions.forgetUser(me.id);
      app.sessions.forgetUser(second.id);
      owner = await signIn(app, OWNER);
    }
  });

  it("changes one's own password with the current one; the other sessions end, this one stays", async () => {
    const created = await add('changer@studio.test', 'front_desk');
    const here = await signIn(app, { email: created.email, password: created.password });
    const elsewhere = await signIn(app, { email: created.email, password: created.password });
    const wrong = await call('POST', '/api/admin/v1/account/password', here, { current_password: 'not-it-at-all', new_password: 'a-brand-new-pass' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([{ path: 'body.current_password', message: 'is not your current password' }]);
    const short = await call('POST', '/api/admin/v1/account/password', here, { current_password: created.password, new_password: 'short' });
    expect(short.json().errors).toEqual([expect.objectContaining({ path: 'body.new_password' })]);
    const changed = await call('POST', '/api/admin/v1/account/password', here, { current_password: created.password, new_password: 'a-brand-new-pass' });
    expect(changed.json()).toEqual({ changed: true, ended_sessions: 1 });
    expect((await call('GET', '/api/admin/v1/sessions', here)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/v1/sessions', elsewhere)).statusCode).toBe(401);
    expect((await login(created.email, 'a-brand-new-pass')).statusCode).toBe(303);
    const entries = await app.database.query<AuditRow>("SELECT * FROM audit_log WHERE action = 'staff.password_change'");
    expect(entries).toEqual([expect.objectContaining({ staff_email: created.email, after: { sessions_ended: 1 } })]);
  });

  it('makes the STAFF_EMAIL account an active owner at every start', async () => {
    const created = await add('operator@studio.test', 'content');
    await call('PUT', `/api/admin/v1/staff/${created.id}`, owner, { status: 'disabled' });
    await ensureStaffAccount(app.database, { STAFF_EMAIL: 'operator@studio.test', STAFF_PASSWORD: 'operator-pass-1' });
    expect(await findStaffByEmail(app.database, 'operator@studio.test')).toMatchObject({ role: 'owner', disabled_at: null });
  });
});

// '0034~' sorts after every 0034_*.sql: the schema just before roles (0035).
describe.each(testDatabases())('the roles migration on $name', ({ open }) => {
  it('makes every account that existed before roles an owner, and refuses an unknown role', async () => {
    const database = await open({ migrateThrough: '0034~' });
    try {
      await database.query("INSERT INTO staff_users (email, nickname) VALUES ('old.timer@studio.test', 'old'), ('another@studio.test', 'another')");
      await runMigrations(database);
      expect(await database.query('SELECT email, role, disabled_at FROM staff_users ORDER BY email')).toEqual([
        { email: 'another@studio.test', role: 'owner', disabled_at: null },
        { email: 'old.timer@studio.test', role: 'owner', disabled_at: null },
      ]);
      await expect(database.query("INSERT INTO staff_users (email, nickname, role) VALUES ('x@studio.test', 'x', 'janitor')")).rejects.toThrow(
        /staff_users_role_check/,
      );
    } finally {
      await database.close();
    }
  });

  it('restores a dump made before roles with its accounts as owners', async () => {
    const old = await open({ migrateThrough: '0034~' });
    const lines: DumpLine[] = [];
    try {
      await old.query("INSERT INTO staff_users (email, nickname, password_hash) VALUES ('from.backup@studio.test', 'backup', 'scrypt$x')");
      await withSnapshot(old, async (run) => {
        for await (const line of dumpLines(run, new Date())) lines.push(line);
      });
    } finally {
      await old.close();
    }
    const current = await open();
    try {
      await restoreLines(
        current,
        (async function* () {
          yield* lines;
        })(),
      );
      expect(await current.query('SELECT email, role FROM staff_users')).toEqual([{ email: 'from.backup@studio.test', role: 'owner' }]);
    } finally {
      await current.close();
    }
  });
});
