import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { BROADCAST_SEND } from '../../server/src/broadcasts/store';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { insertClient } from '../support/clientFixtures';
import { addDevice } from '../support/activityFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const HOUR = 3_600_000;

/** Broadcasts to a segment or filter, their rules (quiet hours, cap, opt-out), scheduling, drafts, cancelling. */
describe.each(testDatabases())('broadcasts on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let owner: string;
  let frontDesk: string;
  const clock = testClock(NOW);
  const ids: Record<string, number> = {};

  const call = (method: string, url: string, payload?: unknown, cookie = owner) =>
    app.inject({ method: method as 'GET', url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const status = async (id: number) => (await call('GET', `/api/admin/v1/broadcasts/${id}`)).json();
  const drain = () => app.jobs.drain([BROADCAST_SEND]);
  /** Moves the clock; sessions end after 30 idle minutes, so staff sign in again. */
  const move = async (to: Date) => {
    clock.set(to);
    owner = await signIn(app);
    frontDesk = await signIn(app, { email: 'desk@studio.test', password: 'desk-password', role: 'front_desk' });
  };

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    owner = await signIn(app);
    frontDesk = await signIn(app, { email: 'desk@studio.test', password: 'desk-password', role: 'front_desk' });
    for (const name of ['sofia', 'optedout', 'notoken', 'capped', 'later']) {
      ids[name] = await insertClient(database, {
        first_name: name === 'sofia' ? 'Sofia' : name,
        last_name: 'Broadcast',
        email_address: `${name}@reach.test`,
        client_status: 'Active',
      });
      if (name !== 'notoken') await addDevice(database, ids[name]!, `token-${name}`);
    }
    await database.query('UPDATE clients SET automated_messages_opt_out = true WHERE id = $1', [ids.optedout]);
    await database.query("INSERT INTO automated_push_days (client_id, local_day, sent) VALUES ($1, '2026-11-22', 1)", [ids.capped]);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('sends to a saved segment matching one client by e-mail: sent 1, and the push on the client page with the name filled in', async () => {
    const segment = (await call('POST', '/api/admin/v1/segments', { name: 'Sofia only', filter: { q: 'sofia@reach.test' } })).json();
    const created = await call('POST', '/api/admin/v1/broadcasts', {
      segment_id: segment.id,
      title: 'Hi {first_name}',
      body: 'See you on the mat, {first_name}!',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ recipients: 1, status: 'sending' });
    await drain();
    expect(await status(created.json().id)).toMatchObject({ status: 'sent', recipients: 1, counts: { sent: 1, failed: 0, skipped: 0, pending: 0 } });
    const pushes = (await call('GET', `/api/admin/v1/pushes?filter=${encodeURIComponent(JSON.stringify({ client_id: ids.sofia }))}`)).json();
    expect(pushes).toEqual([
      expect.objectContaining({ title: 'Hi Sofia', body: 'See you on the mat, Sofia!', source: 'broadcast', status: 'sent', sent_by: 'coach@studio.test' }),
    ]);
  });

  it('skips opted-out clients, clients without a device and clients at their daily cap, counting each reason', async () => {
    const created = (await call('POST', '/api/admin/v1/broadcasts', { filter: { q: '@reach.test', status: ['Active'] }, title: '', body: 'News' })).json();
    expect(created.recipients).toBe(5);
    await drain();
    const result = await status(created.id);
    // Sofia's cap (1 a day) went to the broadcast above; 'capped' had an automated push today.
    expect(result.counts).toEqual({
      sent: 1,
      failed: 0,
      skipped: 4,
      pending: 0,
      retrying: 0,
      waiting: 0,
      not_sent: 0,
      skipped_by_reason: { opted_out: 1, no_token: 1, daily_cap: 2 },
      failed_by_reason: {},
    });
    expect(result.status).toBe('sent');
  });

  it('waits for the end of quiet hours, sends at send_at, and a cancelled one sends nothing more', async () => {
    await database.query('DELETE FROM automated_push_days');
    await move(new Date('2026-11-22T22:30:00Z'));
    const quiet = (await call('POST', '/api/admin/v1/broadcasts', { filter: { q: 'later@reach.test' }, body: 'Late news' })).json();
    await drain();
    expect((await status(quiet.id)).counts.pending).toBe(1);
    await move(new Date('2026-11-23T08:00:01Z'));
    await drain();
    expect(await status(quiet.id)).toMatchObject({ status: 'sent', counts: { sent: 1 } });

    await database.query('DELETE FROM automated_push_days');
    const at = new Date(clock.now().getTime() + 2 * HOUR).toISOString();
    const scheduled = (await call('POST', '/api/admin/v1/broadcasts', { filter: { q: 'sofia@reach.test' }, body: 'Later', send_at: at })).json();
    expect(scheduled.status).toBe('scheduled');
    const cancelledOne = (await call('POST', '/api/admin/v1/broadcasts', { filter: { q: 'later@reach.test' }, body: 'Never', send_at: at })).json();
    expect((await call('POST', `/api/admin/v1/broadcasts/${cancelledOne.id}/cancel`)).json()).toMatchObject({ status: 'cancelled' });
    expect((await call('POST', `/api/admin/v1/broadcasts/${cancelledOne.id}/cancel`)).statusCode).toBe(409);
    await drain();
    expect((await status(scheduled.id)).status).toBe('scheduled');
    await move(new Date(clock.now().getTime() + 2 * HOUR + 1000));
    await drain();
    expect(await status(scheduled.id)).toMatchObject({ status: 'sent', counts: { sent: 1 } });
    // What a cancelled broadcast did not send reads as such, not as waiting to be sent.
    expect(await status(cancelledOne.id)).toMatchObject({ status: 'cancelled', counts: { sent: 0, pending: 0, not_sent: 1 } });
  });

  it('keeps drafts, sends one later, and lists the history newest first with audit entries', async () => {
    await database.query('DELETE FROM automated_push_days');
    const draft = (await call('POST', '/api/admin/v1/broadcasts', { filter: { q: 'sofia@reach.test' }, body: 'Draft', draft: true })).json();
    expect(draft).toMatchObject({ status: 'draft', recipients: 1 });
    await drain();
    expect((await status(draft.id)).counts.sent).toBe(0);
    const edited = await call('PUT', `/api/admin/v1/broadcasts/${draft.id}`, { title: 'Hi {first_name}', body: 'Edited draft' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ id: draft.id, status: 'draft', title: 'Hi {first_name}', body: 'Edited draft' });
    for (const [payload, code] of [
      [{ body: '' }, 400],
      [{ body: 'x', filter: {} }, 400],
      [{ body: 'Hi {frist_name}' }, 400],
      [{ body: 42 }, 400],
    ] as const)
      expect((await call('PUT', `/api/admin/v1/broadcasts/${draft.id}`, payload)).statusCode, JSON.stringify(payload)).toBe(code);
    expect((await call('PUT', '/api/admin/v1/broadcasts/999999', { body: 'x' })).statusCode).toBe(404);
    expect((await status(draft.id)).body).toBe('Edited draft');
    expect((await call('POST', `/api/admin/v1/broadcasts/${draft.id}/send`, {})).json()).toMatchObject({ status: 'sending', recipients: 1 });
    expect((await call('POST', `/api/admin/v1/broadcasts/${draft.id}/send`, {})).statusCode).toBe(409);
    const late = await call('PUT', `/api/admin/v1/broadcasts/${draft.id}`, { body: 'Too late' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/only a draft can be edited/);
    await drain();
    expect((await status(draft.id)).counts.sent).toBe(1);
    expect(await database.query("SELECT body FROM pushes WHERE body LIKE '%draft%'")).toEqual([{ body: 'Edited draft' }]);
    const list = await call('GET', '/api/admin/v1/broadcasts?range=[0,1]');
    expect(list.headers['content-range']).toMatch(/^broadcasts 0-1\/\d+$/);
    expect(list.json()[0].id).toBe(draft.id);
    const audit = await database.query<{ action: string }>("SELECT action FROM audit_log WHERE target_type = 'broadcast' AND target_id = $1 ORDER BY id", [
      String(draft.id),
    ]);
    expect(audit.map((row) => row.action)).toEqual(['broadcast.create', 'broadcast.edit', 'broadcast.send']);
  });

  it('answers at once for a filter beyond the exact count, fixes its recipients in the background, and the counts add up meanwhile', async () => {
    await database.query(
      `INSERT INTO clients (first_name, email_address, client_status, automated_messages_opt_out)
       SELECT 'crowd' || g, 'crowd' || g || '@crowd.test', 'Crowd', true FROM generate_series(1, 10050) AS g`,
    );
    const created = await call('POST', '/api/admin/v1/broadcasts', { filter: { status: ['Crowd'] }, body: 'To the crowd' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ status: 'sending', recipients_estimate: true });
    const before = await status(created.json().id);
    expect(before.recipients_estimate).toBe(true);
    expect(before.recipients).toBeGreaterThan(10_000);
    expect(before.counts).toMatchObject({ sent: 0, skipped: 0, pending: before.recipients });
    await drain();
    const after = await status(created.json().id);
    expect(after).toMatchObject({ status: 'sent', recipients: 10_050, recipients_estimate: false });
    expect(after.counts).toMatchObject({ sent: 0, skipped: 10_050, pending: 0, skipped_by_reason: { opted_out: 10_050 } });
  });

  it('refuses bad input, unknown segments and roles without messaging.edit', async () => {
    const bad: [unknown, number][] = [
      [{ filter: {}, segment_id: 1, body: 'x' }, 400],
      [{ body: 'x' }, 400],
      [{ filter: {}, body: 42 }, 400],
      [{ filter: {}, body: '   ' }, 400],
      [{ filter: {}, body: 'a\u0000b' }, 400],
      [{ filter: {}, body: 'Hi {frist_name}' }, 400],
      [{ filter: { last_class_days: 'x' }, body: 'x' }, 400],
      [{ filter: {}, body: 'x', send_at: '2020-01-01T00:00:00Z' }, 400],
      [{ filter: {}, body: 'x', send_at: 'tomorrow' }, 400],
      [{ filter: { q: 'nobody-at-all' }, body: 'x' }, 400],
      [{ segment_id: 999999, body: 'x' }, 404],
      [{ segment_id: true, body: 'x' }, 400],
    ];
    for (const [payload, code] of bad) expect((await call('POST', '/api/admin/v1/broadcasts', payload)).statusCode, JSON.stringify(payload)).toBe(code);
    expect((await call('GET', '/api/admin/v1/broadcasts/999999')).statusCode).toBe(404);
    expect((await call('POST', '/api/admin/v1/broadcasts/999999/cancel')).statusCode).toBe(404);
    const refused = await call('POST', '/api/admin/v1/broadcasts', { filter: {}, body: 'x' }, frontDesk);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain("'messaging.edit'");
    expect((await call('GET', '/api/admin/v1/broadcasts', undefined, frontDesk)).statusCode).toBe(200);
  });
});
