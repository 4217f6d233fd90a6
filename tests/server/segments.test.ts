import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { ClientListPage } from '@contract/clients';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient } from '../support/clientFixtures';
import { addDevice, addView, addVisit, resetActivityFixtures } from '../support/activityFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

/** The segment filters on the client lists, saved segments and the preview. */
describe.each(testDatabases())('segments on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let owner: string;
  let content: string;
  const ids: Record<string, number> = {};

  const call = (method: string, url: string, payload?: unknown, cookie = owner) =>
    app.inject({ method: method as 'GET', url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const listed = async (query: string) => {
    const response = await call('GET', `/api/client/v1/clients/1?perPage=100&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return ClientListPage.parse(response.json()).clients.map((client) => client._id);
  };

  beforeAll(async () => {
    resetActivityFixtures();
    database = await open();
    app = await createTestApp(database, { clock: testClock(NOW) });
    owner = await signIn(app);
    content = await signIn(app, { email: 'content@studio.test', password: 'content-password', role: 'content' });
    // Each client has one kind of activity, so every filter has clients on both sides.
    for (const name of ['classYesterday', 'class20', 'streamYesterday', 'stream20', 'idle', 'device', 'deadDevice', 'optedOut']) {
      ids[name] = await insertClient(database, { first_name: name, last_name: 'Reach', email_address: `${name.toLowerCase()}@studio.test` });
    }
    await addVisit(database, ids.classYesterday!, ago(1));
    await addVisit(database, ids.class20!, ago(20));
    await addVisit(database, ids.idle!, ago(2), false); // a missed class is no class
    await addView(database, ids.streamYesterday!, ago(1));
    await addView(database, ids.stream20!, ago(20));
    await addDevice(database, ids.device!, 'token-device-1');
    await addDevice(database, ids.deadDevice!, 'token-dead-1');
    await addDevice(database, ids.idle!, 'null'); // a placeholder is no token
    await database.query("INSERT INTO dead_push_tokens (token, code) VALUES ('token-dead-1', 'UNREGISTERED')");
    await database.query('UPDATE clients SET automated_messages_opt_out = true WHERE id = $1', [ids.optedOut]);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('selects by class, stream, any activity, app and opt-out, on the lists and with the other filters', async () => {
    const all = Object.values(ids);
    const except = (...names: string[]) => all.filter((id) => !names.map((name) => ids[name]).includes(id));
    expect(await listed('last_class_days=14')).toEqual([ids.classYesterday]);
    expect(await listed('last_class_days=30')).toEqual([ids.classYesterday, ids.class20]);
    expect(await listed('no_class_days=14')).toEqual(except('classYesterday'));
    expect(await listed('last_stream_days=30&no_stream_days=14')).toEqual([ids.stream20]);
    expect(await listed('last_activity_days=74&no_class_days=14&no_stream_days=14')).toEqual([ids.class20, ids.stream20]);
    expect(await listed('app_installed=true')).toEqual([ids.device]);
    expect(await listed('app_installed=false')).toEqual(except('device'));
    expect(await listed('opted_out=true')).toEqual([ids.optedOut]);
    expect(await listed('opted_out=false&q=stream')).toEqual([ids.streamYesterday, ids.stream20]);
  });

  it("keeps each client's last class and stream as visits and views change (client_activity's triggers)", async () => {
    const extra = await insertClient(database, { first_name: 'Changing', email_address: 'changing@studio.test' });
    await addVisit(database, extra, ago(3));
    await addView(database, extra, ago(2));
    expect(await listed('q=changing&last_class_days=7&last_stream_days=7')).toEqual([extra]);
    await database.query('UPDATE mindbody_visits SET signed_in = false WHERE client_id = $1', [extra]);
    await database.query('DELETE FROM video_views WHERE client_id = $1', [extra]);
    expect(await listed('q=changing&no_class_days=7&no_stream_days=7')).toEqual([extra]);
    await database.query('DELETE FROM clients WHERE id = $1', [extra]);
  });

  it('refuses malformed segment filters with 400 naming them', async () => {
    for (const [query, message] of [
      ['last_class_days=0', /last_class_days must be a whole number from 1 to 3650/],
      ['no_stream_days=3651', /no_stream_days must be a whole number/],
      ['last_activity_days=abc', /last_activity_days must be a whole number/],
      ['app_installed=yes', /app_installed must be true or false/],
    ] as const) {
      const response = await call('GET', `/api/client/v1/clients/1?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });

  it('previews a filter: the count and a sample; one client by e-mail is a count of 1', async () => {
    const one = await call('POST', '/api/admin/v1/segments/preview', { filter: { q: 'class20@studio.test' } });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ count: 1, count_is_estimate: false, sample: [{ _id: ids.class20, email_address: 'class20@studio.test' }] });
    const none = await call('POST', '/api/admin/v1/segments/preview', { filter: { last_class_days: 1, opted_out: true } });
    expect(none.json()).toEqual({ count: 0, count_is_estimate: false, sample: [] });
  });

  it('saves, lists with counts, renames, and deletes segments, each with an audit entry', async () => {
    const created = await call('POST', '/api/admin/v1/segments', { name: ' Came lately ', filter: { last_class_days: 30 } });
    expect(created.statusCode, created.body).toBe(200);
    const segment = created.json();
    expect(segment).toMatchObject({ name: 'Came lately', filter: { last_class_days: 30 }, count: 2, count_is_estimate: false });
    expect((await call('POST', '/api/admin/v1/segments', { name: 'CAME LATELY', filter: {} })).statusCode).toBe(409);
    await call('POST', '/api/admin/v1/segments', { name: 'Apps', filter: { app_installed: true } });

    const list = await call('GET', '/api/admin/v1/segments');
    expect(list.headers['content-range']).toBe('segments 0-1/2');
    expect(list.json().map((item: { name: string; count: number }) => [item.name, item.count])).toEqual([
      ['Apps', 1],
      ['Came lately', 2],
    ]);
    const renamed = await call('PUT', `/api/admin/v1/segments/${segment.id}`, { name: 'Recent', filter: { last_class_days: 14 } });
    expect(renamed.json()).toMatchObject({ id: segment.id, name: 'Recent', count: 1 });
    expect((await call('GET', `/api/admin/v1/segments/${segment.id}`)).json()).toMatchObject({ name: 'Recent', count: 1 });
    expect((await call('DELETE', `/api/admin/v1/segments/${segment.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/admin/v1/segments/${segment.id}`)).statusCode).toBe(404);

    const audit = await database.query<{ action: string }>("SELECT action FROM audit_log WHERE target_type = 'segment' ORDER BY id");
    expect(audit.map((row) => row.action)).toEqual(['segment.create', 'segment.create', 'segment.update', 'segment.delete']);
  });

  it('refuses bad input: wrong types, NUL, unknown keys and ids, and roles without clients.read', async () => {
    const bad: [string, string, unknown, number][] = [
      ['POST', '/api/admin/v1/segments', { name: 7, filter: {} }, 400],
      ['POST', '/api/admin/v1/segments', { name: 'x', filter: { last_class_days: '7' } }, 400],
      ['POST', '/api/admin/v1/segments', { name: 'x', filter: { colour: 'red' } }, 400],
      ['POST', '/api/admin/v1/segments', { name: 'a\u0000b', filter: {} }, 400],
      ['POST', '/api/admin/v1/segments', { name: '   ', filter: {} }, 400],
      ['POST', '/api/admin/v1/segments/preview', { filter: { q: 'a\u0000' } }, 400],
      ['POST', '/api/admin/v1/segments/preview', { filter: { opted_out: 'true' } }, 400],
      ['PUT', '/api/admin/v1/segments/999999', { name: 'x', filter: {} }, 404],
      ['DELETE', '/api/admin/v1/segments/999999', undefined, 404],
      ['GET', '/api/admin/v1/segments/abc', undefined, 400],
    ];
    for (const [method, url, payload, status] of bad)
      expect((await call(method, url, payload)).statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(status);
    const refused = await call('POST', '/api/admin/v1/segments/preview', { filter: {} }, content);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain("'clients.read'");
  });
});
