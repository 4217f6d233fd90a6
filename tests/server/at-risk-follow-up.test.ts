import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { AtRiskPage } from '@contract/segments';
import { ContactEntry } from '@contract/contacts';
import { TimelineResponse } from '@contract/timeline';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient } from '../support/clientFixtures';
import { addDevice, addVisit, resetActivityFixtures } from '../support/activityFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

/**
 * The at-risk list's follow-ups: can a push reach each client (and why not), 'last contacted' moved
 * only by what reached the client or a contact staff logged, and a snooze that takes a client off
 * the list (and out of its filter) until it ends. Contacts and snoozes are on the timeline.
 */
describe.each(testDatabases())('following up the at-risk list on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  let desk: string;
  const clock = testClock(NOW);
  const ids: Record<string, number> = {};
  const atRisk = async () => {
    const response = await app.inject({ method: 'GET', url: '/api/admin/v1/at-risk', headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return AtRiskPage.parse(response.json());
  };
  const row = async (name: string) => (await atRisk()).clients.find((client) => client.first_name === name);
  const post = (path: string, body: unknown, who = cookie) =>
    app.inject({ method: 'POST', url: `/api/admin/v1${path}`, headers: { cookie: who }, payload: body as object });

  beforeAll(async () => {
    resetActivityFixtures();
    database = await open();
    app = await createTestApp(database, { clock, env: { AT_RISK_ACTIVE_DAYS: '30', AT_RISK_QUIET_DAYS: '10' } });
    cookie = await signIn(app);
    desk = await signIn(app, { email: 'desk@studio.test', password: 'front-desk-password', role: 'front_desk' });
    for (const name of ['reachable', 'deadOnly', 'noToken', 'noApp']) {
      ids[name] = await insertClient(database, { first_name: name, email_address: `${name}@studio.test`, vod_access_level: 3 });
      await addVisit(database, ids[name]!, ago(20));
    }
    await addDevice(database, ids.reachable!, 'live-token');
    await addDevice(database, ids.deadOnly!, 'dead-token');
    await database.query(`INSERT INTO dead_push_tokens (token, code) VALUES ('dead-token', 'UNREGISTERED')`);
    await database.query(`INSERT INTO debug_records (client_id, platform, firebase_token_new, sent_at) VALUES ($1, 'ios', 'null', $2)`, [
      ids.noToken,
      ago(3).toISOString(),
    ]);
    // A push that reached the client, and attempts that reached no one: only the first is contact.
    await database.query(
      `INSERT INTO pushes (client_id, sent_by, source, title, body, status, reason, created_at, finished_at) VALUES
       ($1, 'coach@studio.test', 'console', 'Miss you', 'b', 'sent', NULL, $3, $3),
       ($2, 'coach@studio.test', 'console', 'Miss you', 'b', 'no_token', 'no device token', $4, $4),
       ($1, 'coach@studio.test', 'console', 'Again', 'b', 'failed', 'FCM refused', $4, $4)`,
      [ids.reachable, ids.noToken, ago(5).toISOString(), ago(2).toISOString()],
    );
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('says for each client whether a push can reach them, and why not', async () => {
    const page = await atRisk();
    const reach = Object.fromEntries(page.clients.map((client) => [client.first_name, [client.reachable, client.unreachable_reason]]));
    expect(reach).toEqual({
      reachable: [true, null],
      deadOnly: [false, 'tokens_dead'],
      noToken: [false, 'no_token'],
      noApp: [false, 'no_app'],
    });
  });

  it("moves 'last contacted' only for a push that reached a device or a contact staff logged", async () => {
    expect((await row('reachable'))!.last_contacted_at).toBe(ago(5).toISOString());
    expect((await row('noToken'))!.last_contacted_at).toBeNull();
    // The clock only moves forward here: a session does not outlive time going back.
    clock.advance(60_000);
    const logged = await post(`/clients/${ids.noToken}/contacts`, { kind: 'called', note: '  Will come back after the holidays ' }, desk);
    expect(logged.statusCode, logged.body).toBe(200);
    expect(ContactEntry.parse(logged.json())).toMatchObject({ kind: 'called', note: 'Will come back after the holidays', staff_email: 'desk@studio.test' });
    expect((await row('noToken'))!.last_contacted_at).toBe(clock.now().toISOString());
  });

  it('refuses a contact or snooze it cannot keep, naming what is wrong, and roles that may not write about clients', async () => {
    const bad: [string, unknown, string][] = [
      [`/clients/${ids.noApp}/contacts`, { kind: 'emailed' }, 'kind'],
      [`/clients/${ids.noApp}/contacts`, { kind: 'called', note: 'x'.repeat(501) }, 'note'],
      [`/clients/${ids.noApp}/contacts`, { kind: 'called', extra: 1 }, 'extra'],
      [`/clients/${ids.noApp}/snooze`, { days: 0 }, 'days'],
      [`/clients/${ids.noApp}/snooze`, { days: 91 }, 'days'],
      [`/clients/${ids.noApp}/snooze`, { days: 1.5 }, 'days'],
      [`/clients/${ids.noApp}/snooze`, { days: '7' }, 'days'],
      [`/clients/${ids.noApp}/snooze`, {}, 'days'],
    ];
    for (const [path, body, field] of bad) {
      const response = await post(path, body);
      expect(response.statusCode, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(response.body, `${path} ${JSON.stringify(body)}`).toContain(field);
    }
    expect((await post('/clients/999999/contacts', { kind: 'texted' })).statusCode).toBe(404);
    expect((await post('/clients/999999/snooze', { days: 3 })).statusCode).toBe(404);
    const content = await signIn(app, { email: 'content@studio.test', password: 'content-password', role: 'content' });
    expect((await post(`/clients/${ids.noApp}/contacts`, { kind: 'texted' }, content)).statusCode).toBe(403);
    expect((await post(`/clients/${ids.noApp}/snooze`, { days: 3 }, content)).statusCode).toBe(403);
  });

  it('takes a snoozed client off the list, its total and its filter until the snooze ends, and puts both on the timeline', async () => {
    const before = await atRisk();
    const until = new Date(clock.now().getTime() + 7 * DAY).toISOString();
    const snoozed = await post(`/clients/${ids.deadOnly}/snooze`, { days: 7, note: 'On holiday' }, desk);
    expect(snoozed.statusCode, snoozed.body).toBe(200);
    expect(ContactEntry.parse(snoozed.json())).toMatchObject({ kind: 'snoozed', snoozed_until: until });

    const during = await atRisk();
    expect(during.clients.map((client) => client.first_name)).not.toContain('deadOnly');
    expect(during.total).toBe(before.total - 1);
    // A broadcast or bulk action on the list's filter reaches the same clients.
    expect(during.filter).toMatchObject({ snoozed: false });
    const list = await app.inject({
      method: 'GET',
      url: '/api/client/v1/clients/1?last_activity_days=40&no_class_days=10&no_stream_days=10&snoozed=false',
      headers: { cookie },
    });
    expect(list.json().total).toBe(during.total);
    const onlySnoozed = await app.inject({ method: 'GET', url: '/api/client/v1/clients/1?snoozed=true', headers: { cookie } });
    expect(onlySnoozed.json().clients.map((client: { first_name: string }) => client.first_name)).toEqual(['deadOnly']);

    const timeline = TimelineResponse.parse(
      (await app.inject({ method: 'GET', url: `/api/admin/v1/clients/${ids.deadOnly}/timeline?kinds=contact`, headers: { cookie } })).json(),
    );
    expect(timeline.entries.map((entry) => [entry.event, entry.detail, entry.by, entry.until])).toEqual([
      ['contact.snoozed', 'On holiday', 'desk@studio.test', until],
    ]);
    const audit = await database.query<{ action: string; client_id: string }>(
      `SELECT action, client_id FROM audit_log WHERE action IN ('client.contact', 'client.snooze') ORDER BY id`,
    );
    expect(audit.map((entry) => [entry.action, Number(entry.client_id)])).toEqual([
      ['client.contact', ids.noToken],
      ['client.snooze', ids.deadOnly],
    ]);

    // The snooze ends (the visit is still inside the window): back on the list.
    clock.set(new Date(Date.parse(until) + 1000));
    cookie = await signIn(app);
    expect((await atRisk()).clients.map((client) => client.first_name)).toContain('deadOnly');
  });
});
