import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { addClient, addTemplate, addVisit, recordingSender, resetAutomation } from '../support/automation';

const base = '/api/admin/v1/automated-messages';

describe.each(testDatabases())('automated messages API on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const clock = testClock();
  const sender = recordingSender();
  const tokens: string[] = [];
  sender.sendToToken = async (push) => {
    tokens.push(push.token);
    return push.token.startsWith('bad') ? { status: 'failed', error: 'UNREGISTERED', retryable: false } : { status: 'sent' };
  };
  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, {
      clock,
      env: { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '0', STUDIO_TIME_ZONE: 'Europe/Berlin' },
      automatedSender: sender,
    });
    cookie = await signIn(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    await resetAutomation(database);
    await database.query("DELETE FROM app_settings WHERE key = 'automation.global'");
    sender.delivered.length = 0;
    tokens.length = 0;
    // Tests move the clock by days; a fresh session each time keeps the cookie valid.
    clock.set(new Date('2026-11-22T12:00:00Z'));
    cookie = await signIn(app);
  });

  it('needs a staff session', async () => {
    expect((await app.inject({ method: 'GET', url: `${base}/1/settings` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/admin/v1/clients/1/automated-messages' })).statusCode).toBe(401);
  });

  it('answers the defaults, and stores changed settings field by field', async () => {
    await database.execScript('DELETE FROM automation_settings');
    const first = await call('GET', `${base}/1/settings`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      message_type: 1,
      settings: { active: true, delay_minutes: 60, milestones: [10, 50, 100] },
      global: { quiet_start: '21:00', quiet_end: '08:00', daily_cap: 1 },
      time_zone: 'Europe/Berlin',
      staff_device_token: null,
    });
    const changed = await call('PUT', `${base}/1/settings`, { settings: { delay_minutes: 90 }, global: { daily_cap: 2 } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ settings: { active: true, delay_minutes: 90 }, global: { quiet_start: '21:00', daily_cap: 2 } });
    expect((await call('GET', `${base}/5/settings`)).json().global.daily_cap).toBe(2);
    const audit = await call('GET', `/api/admin/v1/audit?filter=${encodeURIComponent(JSON.stringify({ action: 'automated_message.update' }))}&range=[0,0]`);
    expect(audit.json()[0]).toMatchObject({
      staff_email: 'coach@studio.test',
      target_type: 'message_type',
      target_id: '1',
      before: { delay_minutes: 60, 'global.daily_cap': 1 },
      after: { delay_minutes: 90, 'global.daily_cap': 2 },
    });
  });

  it('gives the next weekly moment for Monday Morning in the studio time zone', async () => {
    clock.set(new Date('2026-11-22T12:00:00Z')); // a Sunday
    const response = await call('PUT', `${base}/4/settings`, { settings: { active: true, send_time: '07:45' } });
    expect(response.json().next_run_at).toBe('2026-11-23T06:45:00.000Z'); // 07:45 in Berlin (UTC+1)
  });

  it('refuses bad settings with a message naming the field, and keeps what was stored', async () => {
    await call('PUT', `${base}/1/settings`, { settings: { delay_minutes: 30 } });
    for (const body of [
      { settings: { send_time: '25:00' } },
      { settings: { delay_minutes: -1 } },
      { global: { daily_cap: 0 } },
      { settings: { milestones: ['ten'] } },
    ]) {
      const response = await call('PUT', `${base}/1/settings`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^Invalid request: body\./);
    }
    expect((await call('GET', `${base}/7/settings`)).statusCode).toBe(400);
    expect((await call('GET', `${base}/1/settings`)).json().settings.delay_minutes).toBe(30);
  });

  it('previews who the next run would message, with their filled-in text', async () => {
    await addTemplate(database, 4, 'Good morning, {first_name}!', 'New week, new goals.');
    await call('PUT', `${base}/4/settings`, { settings: { send_time: '08:30' } });
    await addClient(database, { first_name: 'Ana' });
    await addClient(database, { first_name: 'Bo' });
    await addClient(database, { first_name: 'Cy', opted_out: true });
    await addClient(database, { first_name: 'Di', token: null });
    clock.set(new Date('2026-11-22T12:00:00Z'));
    const response = await call('GET', `${base}/4/preview`);
    expect(response.statusCode).toBe(200);
    const preview = response.json();
    expect(preview).toMatchObject({ to: '2026-11-23T07:30:00.000Z', count: 2, blocked: null });
    expect(preview.sample.map((s: { title: string }) => s.title)).toEqual(['Good morning, Ana!', 'Good morning, Bo!']);
  });

  it('says why a preview would send nothing', async () => {
    await addClient(database);
    expect((await call('GET', `${base}/4/preview`)).json().blocked).toBe('paused');
    await call('PUT', `${base}/4/settings`, { settings: { active: true } });
    expect((await call('GET', `${base}/4/preview`)).json().blocked).toBe('no_template');
  });

  it('counts the last 30 days per template: sent, failed, skipped by reason', async () => {
    const template = await addTemplate(database, 1, 'High five!', 'Nice class.');
    const ana = await addClient(database);
    const bo = await addClient(database, { opted_out: true });
    await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
    await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T10:00:00Z' });
    await addVisit(database, bo, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
    clock.set(new Date('2026-11-23T12:00:00Z'));
    await app.automation.engine.tick();
    cookie = await signIn(app);
    const counts = (await call('GET', `${base}/1/counts`)).json();
    expect(counts.templates).toEqual([
      { push_message_id: template, title: 'High five!', message: 'Nice class.', sent: 1, failed: 0, skipped: { daily_cap: 1 } },
    ]);
    expect(counts.without_template).toEqual({ sent: 0, failed: 0, skipped: { opted_out: 1 } });
    expect(counts.total).toEqual({ sent: 1, failed: 0, skipped: { daily_cap: 1, opted_out: 1 } });
    clock.set(new Date('2026-12-24T12:00:00Z'));
    cookie = await signIn(app);
    expect((await call('GET', `${base}/1/counts`)).json().total).toEqual({ sent: 0, failed: 0, skipped: {} });
  });

  it("sends a test to the staff member's own device token", async () => {
    const template = await addTemplate(database, 6, 'Come back, {first_name}', "It's been {days_absent} days.");
    const refused = await call('POST', `${base}/6/test`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/device token/);
    const stored = await call('PUT', `${base}/device-token`, { device_token: 'staff-phone-token' });
    expect(stored.json()).toEqual({ staff_device_token: 'staff-phone-token' });
    expect((await call('GET', `${base}/6/settings`)).json().staff_device_token).toBe('staff-phone-token');
    const sent = await call('POST', `${base}/6/test`, { push_message_id: template });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ status: 'sent', title: 'Come back, coach', message: "It's been 14 days.", error: null });
    expect(tokens).toEqual(['staff-phone-token']);
    await call('PUT', `${base}/device-token`, { device_token: 'bad-token' });
    expect((await call('POST', `${base}/6/test`, {})).json()).toMatchObject({ status: 'failed', error: 'UNREGISTERED' });
    expect((await call('POST', `${base}/6/test`, { push_message_id: 999999 })).statusCode).toBe(404);
  });

  it("lists a client's automated pushes and lets staff opt the client out", async () => {
    await addTemplate(database, 1, 'High five, {first_name}!', 'Nice class.');
    const ana = await addClient(database, { first_name: 'Ana' });
    await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
    clock.set(new Date('2026-11-23T12:00:00Z'));
    await app.automation.engine.tick();
    cookie = await signIn(app);
    const listed = (await call('GET', `/api/admin/v1/clients/${ana}/automated-messages`)).json();
    expect(listed).toMatchObject({
      opted_out: false,
      pushes: [{ msg_type_title: 'High Five', status: 'sent', title: 'High five, Ana!', sent_at: '2026-11-23T12:00:00.000Z' }],
    });
    const optedOut = await call('PUT', `/api/admin/v1/clients/${ana}/automated-messages`, { opted_out: true });
    expect(optedOut.json().opted_out).toBe(true);
    const history = await call('GET', `/api/admin/v1/audit?filter=${encodeURIComponent(JSON.stringify({ client_id: ana }))}`);
    expect(history.json()).toEqual([
      expect.objectContaining({
        action: 'client.automated_opt_out',
        before: { automated_messages_opt_out: false },
        after: { automated_messages_opt_out: true },
      }),
    ]);
    expect((await call('GET', '/api/admin/v1/clients/999999/automated-messages')).statusCode).toBe(404);
  });

  describe('templates with unknown placeholders', () => {
    it('cannot be enabled (400 with a message) but can be stored disabled', async () => {
      const added = await call('POST', '/api/client/v1/messaging/add-new', { message_type: 1, title: 'Hi {frist_name}', message: 'Nice class', enabled: true });
      expect(added.statusCode).toBe(400);
      expect(added.json()).toMatchObject({ status: 'error', message: expect.stringContaining('{frist_name} is not a placeholder') });
      const disabled = await call('POST', '/api/client/v1/messaging/add-new', {
        message_type: 1,
        title: 'Hi {frist_name}',
        message: 'Nice class',
        enabled: false,
      });
      expect(disabled.statusCode).toBe(200);
      const id = disabled.json().push_message.id;
      const enable = await call('POST', '/api/client/v1/messaging/update', { id, title: 'Hi {frist_name}', message: 'See you in {klass}', enabled: true });
      expect(enable.statusCode).toBe(400);
      expect(enable.json().message).toContain('{frist_name}, {klass} are not placeholders');
      const stored = await database.query<{ enabled: boolean; message: string }>('SELECT enabled, message FROM push_messages WHERE id = $1', [id]);
      expect(stored).toEqual([{ enabled: false, message: 'Nice class' }]);
      const fixed = await call('POST', '/api/client/v1/messaging/update', { id, title: 'Hi {first_name}', message: 'See you in {class_name}', enabled: true });
      expect(fixed.statusCode).toBe(200);
    });
  });
});
