import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { BROADCAST_SEND } from '../../server/src/broadcasts/store';
import { BULK_OVERRIDE } from '../../server/src/bulk/override';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient } from '../support/clientFixtures';
import { addDevice } from '../support/activityFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const UNTIL = new Date(NOW.getTime() + 7 * DAY).toISOString();

/** Bulk overrides and pushes on selected clients or on all matching, one audit entry per client. */
describe.each(testDatabases())('bulk actions on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const cookies: Record<string, string> = {};
  const picked: number[] = [];
  const crowd: number[] = [];

  const call = (method: string, url: string, payload?: unknown, who = 'owner', headers: Record<string, string> = {}) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: { cookie: cookies[who]!, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const auditOf = (action: string, clientIds: number[]) =>
    database.query<{ client_id: number; after: Record<string, unknown> }>(
      'SELECT client_id, after FROM audit_log WHERE action = $1 AND client_id = ANY($2::bigint[]) ORDER BY client_id',
      [action, clientIds],
    );

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock: testClock(NOW) });
    cookies.owner = await signIn(app);
    cookies.desk = await signIn(app, { email: 'desk@studio.test', password: 'desk-password', role: 'front_desk' });
    cookies.content = await signIn(app, { email: 'content@studio.test', password: 'content-password', role: 'content' });
    for (const name of ['ann', 'bea']) {
      const id = await insertClient(database, { first_name: name, email_address: `${name}@bulk.test`, vod_access_level: 1 });
      await addDevice(database, id, `token-bulk-${name}`);
      picked.push(id);
    }
    for (let i = 0; i < 30; i++)
      crowd.push(
        await insertClient(database, { first_name: `crowd${i}`, email_address: `crowd${i}@many.test`, client_status: 'Expired', vod_access_level: 1 }),
      );
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('grants an override to two selected clients at once: both overrides and two audit entries', async () => {
    const response = await call('POST', '/api/admin/v1/bulk/override', { client_ids: picked, new_vod_access_level: 3, adminOverrideDate: UNTIL });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'done', total: 2, done: 2, failed: 0, pending: 0 });
    const clients = await database.query<{ vod_access_level: number; admin_updated_expiration: Date | string }>(
      'SELECT vod_access_level, admin_updated_expiration FROM clients WHERE id = ANY($1::bigint[]) ORDER BY id',
      [picked],
    );
    expect(clients.map((client) => [client.vod_access_level, new Date(client.admin_updated_expiration).toISOString()])).toEqual([
      [3, UNTIL],
      [3, UNTIL],
    ]);
    const audit = await auditOf('client.override_grant', picked);
    expect(audit.map((entry) => [Number(entry.client_id), entry.after])).toEqual(
      picked.map((id) => [id, { vod_access_level: 3, admin_updated_expiration: UNTIL }]),
    );
  });

  it('grants to all matching clients of a filter in the background, with progress, one audit entry each', async () => {
    const started = (
      await call('POST', '/api/admin/v1/bulk/override', { filter: { status: ['Expired'], q: '@many.test' }, new_vod_access_level: 2, adminOverrideDate: UNTIL })
    ).json();
    expect(started).toMatchObject({ status: 'running', total: 30, done: 0, pending: 30 });
    await app.jobs.drain([BULK_OVERRIDE]);
    expect((await call('GET', `/api/admin/v1/bulk/override/${started.id}`)).json()).toMatchObject({
      status: 'done',
      total: 30,
      done: 30,
      failed: 0,
      pending: 0,
    });
    expect(await auditOf('client.override_grant', crowd)).toHaveLength(30);
  });

  it('grants nothing more once another worker has taken the job over, and the one that took it over grants each client once', async () => {
    const late: number[] = [];
    for (let i = 0; i < 30; i++)
      late.push(await insertClient(database, { first_name: `late${i}`, email_address: `late${i}@takeover.test`, vod_access_level: 1 }));
    // Right after the first grant commits, another worker takes the job over (its claim changes), as
    // when this worker stalled past its lease.
    await database.execScript(`
      CREATE FUNCTION take_over_bulk() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE jobs SET claim_token = 'another-worker' WHERE queue = '${BULK_OVERRIDE}' AND state = 'running';
        RETURN NEW;
      END $$;
      CREATE TRIGGER take_over_bulk AFTER INSERT ON audit_log FOR EACH ROW WHEN (NEW.client_id = ${late[0]}) EXECUTE FUNCTION take_over_bulk();
    `);
    const started = (
      await call('POST', '/api/admin/v1/bulk/override', { filter: { q: '@takeover.test' }, new_vod_access_level: 2, adminOverrideDate: UNTIL })
    ).json();
    expect(started).toMatchObject({ status: 'running', total: 30 });
    await app.jobs.drain([BULK_OVERRIDE]);
    expect((await call('GET', `/api/admin/v1/bulk/override/${started.id}`)).json()).toMatchObject({ status: 'running', done: 1, pending: 29 });
    expect(await auditOf('client.override_grant', late)).toHaveLength(1);

    await database.execScript('DROP TRIGGER take_over_bulk ON audit_log; DROP FUNCTION take_over_bulk();');
    // The worker that took it over runs it from where it stands.
    await database.query(
      `UPDATE jobs SET state = 'queued', claim_token = NULL, locked_by = NULL, locked_until = NULL, run_at = $1 WHERE queue = $2 AND state = 'running'`,
      [NOW.toISOString(), BULK_OVERRIDE],
    );
    await app.jobs.drain([BULK_OVERRIDE]);
    expect((await call('GET', `/api/admin/v1/bulk/override/${started.id}`)).json()).toMatchObject({ status: 'done', done: 30, failed: 0, pending: 0 });
    const audit = await auditOf('client.override_grant', late);
    expect(audit.map((entry) => Number(entry.client_id))).toEqual(late);
  });

  it('pushes to the selected clients as a background bulk push, an audit entry per client, the front desk too', async () => {
    const response = await call('POST', '/api/admin/v1/bulk/push', { client_ids: picked, title: 'Hi {first_name}', body: 'Class tonight' }, 'desk');
    expect(response.statusCode, response.body).toBe(200);
    const { id } = response.json();
    await app.jobs.drain([BROADCAST_SEND]);
    expect((await call('GET', `/api/admin/v1/broadcasts/${id}`)).json()).toMatchObject({
      kind: 'bulk_push',
      status: 'sent',
      counts: { sent: 2, failed: 0, skipped: 0 },
    });
    const audit = await auditOf('client.push', picked);
    expect(audit.map((entry) => entry.after)).toEqual([
      expect.objectContaining({ bulk_push: id, outcome: 'sent', body: 'Class tonight' }),
      expect.objectContaining({ bulk_push: id, outcome: 'sent' }),
    ]);
    const pushes = await database.query<{ title: string; sent_by: string }>('SELECT title, sent_by FROM pushes WHERE client_id = $1', [picked[0]]);
    expect(pushes).toEqual([{ title: 'Hi ann', sent_by: 'desk@studio.test' }]);
  });

  it('refuses a front-desk push by filter ("all matching"): that is a broadcast, and sends nothing', async () => {
    const before = await database.query('SELECT id FROM broadcasts');
    for (const filter of [{}, { q: '@bulk.test' }]) {
      const refused = await call('POST', '/api/admin/v1/bulk/push', { filter, body: 'To everyone' }, 'desk');
      expect(refused.statusCode, JSON.stringify(filter)).toBe(403);
      expect(refused.json().message).toContain("'messaging.edit'");
    }
    expect(await database.query('SELECT id FROM broadcasts')).toEqual(before);
    // More than a page of picked clients is not a selection either.
    const many = Array.from({ length: 501 }, (_, i) => i + 1);
    expect((await call('POST', '/api/admin/v1/bulk/push', { client_ids: many, body: 'x' }, 'desk')).statusCode).toBe(400);
    // An owner (messaging.edit) may.
    const allowed = await call('POST', '/api/admin/v1/bulk/push', { filter: { q: '@bulk.test' }, body: 'To both' });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json().recipients).toBe(2);
    await app.jobs.drain([BROADCAST_SEND]);
  });

  it('the same Idempotency-Key answers the same bulk push and bulk override, sending and granting once', async () => {
    await database.query('DELETE FROM automated_push_days');
    const push = { client_ids: picked, body: 'Once only' };
    const key = { 'idempotency-key': 'bulk-dialog-0001' };
    const [a, b] = await Promise.all([call('POST', '/api/admin/v1/bulk/push', push, 'desk', key), call('POST', '/api/admin/v1/bulk/push', push, 'desk', key)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.json().id).toBe(a.json().id);
    await app.jobs.drain([BROADCAST_SEND]);
    expect((await call('POST', '/api/admin/v1/bulk/push', push, 'desk', key)).json().id).toBe(a.json().id);
    await app.jobs.drain([BROADCAST_SEND]);
    expect(await database.query("SELECT id FROM pushes WHERE body = 'Once only'")).toHaveLength(2);
    // Another staff member's key is theirs: the same text from the owner is a new bulk push.
    expect((await call('POST', '/api/admin/v1/bulk/push', push, 'owner', key)).json().id).not.toBe(a.json().id);
    expect((await call('POST', '/api/admin/v1/bulk/push', { ...push, body: 'Changed' }, 'desk', key)).statusCode).toBe(409);

    const grant = { client_ids: picked, new_vod_access_level: 2, adminOverrideDate: UNTIL };
    const first = await call('POST', '/api/admin/v1/bulk/override', grant, 'owner', { 'idempotency-key': 'override-dialog-1' });
    const second = await call('POST', '/api/admin/v1/bulk/override', grant, 'owner', { 'idempotency-key': 'override-dialog-1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(second.json()).toEqual(first.json());
    const grants = await database.query(
      "SELECT id FROM audit_log WHERE action = 'client.override_grant' AND after->>'vod_access_level' = '2' AND client_id = ANY($1::bigint[])",
      [picked],
    );
    expect(grants).toHaveLength(2);
  });

  it('refuses bad input and roles without the permission each action needs', async () => {
    const bad: [string, unknown, number][] = [
      ['override', { client_ids: picked, new_vod_access_level: 3, adminOverrideDate: NOW.toISOString() }, 400],
      ['override', { client_ids: picked, new_vod_access_level: 3, adminOverrideDate: new Date(NOW.getTime() + 400 * DAY).toISOString() }, 400], // beyond OVERRIDE_MAX_DAYS (365), as for one client
      ['override', { client_ids: picked, new_vod_access_level: 99, adminOverrideDate: UNTIL }, 400],
      ['override', { client_ids: ['1'], filter: {}, new_vod_access_level: 3, adminOverrideDate: UNTIL }, 400],
      ['override', { client_ids: [true], new_vod_access_level: 3, adminOverrideDate: UNTIL }, 400],
      ['override', { client_ids: [999999], new_vod_access_level: 3, adminOverrideDate: UNTIL }, 400],
      ['override', { filter: { q: 'a\u0000' }, new_vod_access_level: 3, adminOverrideDate: UNTIL }, 400],
      ['push', { client_ids: [], body: 'x' }, 400],
      ['push', { client_ids: picked, body: '' }, 400],
      ['push', { filter: { opted_out: 'yes' }, body: 'x' }, 400],
    ];
    for (const [action, payload, code] of bad)
      expect((await call('POST', `/api/admin/v1/bulk/${action}`, payload)).statusCode, `${action} ${JSON.stringify(payload)}`).toBe(code);
    expect((await call('GET', '/api/admin/v1/bulk/override/999999')).statusCode).toBe(404);
    const desk = await call('POST', '/api/admin/v1/bulk/override', { client_ids: picked, new_vod_access_level: 3, adminOverrideDate: UNTIL }, 'desk');
    expect(desk.statusCode).toBe(403);
    expect(desk.json().message).toContain("'clients.override'");
    const content = await call('POST', '/api/admin/v1/bulk/push', { client_ids: picked, body: 'x' }, 'content');
    expect(content.statusCode).toBe(403);
    expect(content.json().message).toContain("'clients.push'");
  });
});
