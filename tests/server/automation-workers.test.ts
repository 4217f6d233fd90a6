import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { createFcmClient } from '../../server/src/integrations/fcm';
import { testDatabases } from '../support/databases';
import { startFcmStandIn, type FcmStandIn } from '../support/fcmStandIn';
import { createTestApp, testClock } from '../support/server';
import { addClient, addTemplate, addVisit, pushRows, recordingSender, resetAutomation } from '../support/automation';
import type { AutomatedSender } from '../../server/src/automation/sender';

const MINUTE = 60_000;

describe.each(testDatabases())('automated messages: exactly once with two workers on $name', ({ open }) => {
  let database: Database;
  let first: FastifyInstance;
  let second: FastifyInstance;
  const clock = testClock();
  // One recorder behind both instances: a push sent twice would show up twice in it.
  const sender = recordingSender();

  beforeAll(async () => {
    database = await open();
    const env = { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '5' };
    first = await createTestApp(database, { clock, env, automatedSender: sender });
    second = await createTestApp(database, { clock, env, automatedSender: sender });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await database.close();
  });
  beforeEach(async () => {
    await resetAutomation(database);
    sender.delivered.length = 0;
  });

  it('sends every event once when both instances run at the same moment, again and again', async () => {
    await addTemplate(database, 1, 'High five, {first_name}!', 'Nice class.');
    await addTemplate(database, 5, 'Class cancelled', 'Sorry.');
    const clients: number[] = [];
    for (let i = 0; i < 40; i++) {
      const client = await addClient(database, { first_name: `Client ${i}` });
      clients.push(client);
      await addVisit(database, client, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
    }
    clock.set(new Date('2026-11-23T11:00:00Z'));
    // Both engines directly, concurrently, several rounds; and both job pollers on top.
    for (let round = 0; round < 3; round++) {
      await Promise.all([first.automation.engine.tick(), second.automation.engine.tick(), first.jobs.runDue(), second.jobs.runDue()]);
    }
    expect(sender.delivered).toHaveLength(40);
    expect(new Set(sender.delivered.map((d) => d.clientId))).toEqual(new Set(clients));
    expect((await pushRows(database)).every((row) => row.status === 'sent')).toBe(true);
  });

  it('sends nothing twice after a restart: a new instance sees what the old one did', async () => {
    await addTemplate(database, 1, 'High five!', 'Nice class.');
    const ana = await addClient(database);
    await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
    clock.set(new Date('2026-11-23T11:00:00Z'));
    await first.automation.engine.tick();
    const restarted = await createTestApp(database, { clock, env: { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '5' }, automatedSender: sender });
    try {
      clock.advance(5 * MINUTE);
      await restarted.jobs.runDue();
      await restarted.automation.engine.tick();
    } finally {
      await restarted.close();
    }
    expect(sender.delivered).toHaveLength(1);
  });

  it('keeps the outcome of the worker that took a push over when the first one answers after its lease', async () => {
    let called!: () => void;
    const slowCalled = new Promise<void>((resolve) => (called = resolve));
    let answer!: () => void;
    const slowAnswers = new Promise<void>((resolve) => (answer = resolve));
    const slowSender: AutomatedSender = {
      async sendToClient() {
        called();
        await slowAnswers;
        return { status: 'failed', error: 'answered too late', retryable: false };
      },
      async sendToToken() {
        return { status: 'sent' };
      },
    };
    // The same configuration as the other two: the schedules follow whichever instance started last.
    const slow = await createTestApp(database, { clock, env: { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '5' }, automatedSender: slowSender });
    try {
      await addTemplate(database, 1, 'High five!', 'Nice class.');
      const ana = await addClient(database);
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
      clock.set(new Date('2026-11-23T11:00:00Z'));
      const slowRun = slow.automation.engine.tick();
      await slowCalled;
      clock.advance(6 * MINUTE); // past the 5-minute lease: the other instance sends it
      await first.automation.engine.tick();
      answer();
      await slowRun;
      expect(sender.delivered).toHaveLength(1);
      expect(await pushRows(database)).toMatchObject([{ client_id: ana, status: 'sent', last_error: null }]);
      const [day] = await database.query<{ sent: number }>('SELECT sent FROM automated_push_days WHERE client_id = $1', [ana]);
      expect(day?.sent).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it('runs from the durable job queue: the schedule fires once per interval across both instances', async () => {
    await addTemplate(database, 5, 'Class cancelled', 'Sorry {first_name}.');
    const ana = await addClient(database, { first_name: 'Ana' });
    await addVisit(database, ana, { kind: 'late_cancelled', start: '2026-11-23T18:00:00Z', modified: '2026-11-23T12:00:00Z' });
    clock.set(new Date('2026-11-23T12:31:00Z'));
    clock.advance(5 * MINUTE);
    await Promise.all([first.jobs.runDue(), second.jobs.runDue()]);
    clock.advance(5 * MINUTE);
    await Promise.all([first.jobs.runDue(), second.jobs.runDue()]);
    expect(sender.delivered.map((d) => d.body)).toEqual(['Sorry Ana.']);
  });
});

/** The real FCM client against a local stand-in: failures, retries, dead tokens, the pushes table. */
describe.each(testDatabases())('automated messages through the FCM adapter on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let standIn: FcmStandIn;
  const clock = testClock();

  beforeAll(async () => {
    database = await open();
    standIn = await startFcmStandIn();
    const fcm = createFcmClient({ apiUrl: standIn.url, serviceAccount: standIn.serviceAccount }, { sleep: async () => undefined, now: () => clock.now() });
    app = await createTestApp(database, { clock, env: { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '0' }, fcm });
  });
  afterAll(async () => {
    await app.close();
    await standIn.close();
    await database.close();
  });
  beforeEach(async () => {
    await resetAutomation(database);
    standIn.state.failures.length = 0;
    standIn.state.delivered.length = 0;
  });

  it('delivers through FCM and records the push as automated in the pushes table', async () => {
    await addTemplate(database, 1, 'High five, {first_name}!', 'Great work in {class_name}.');
    const ana = await addClient(database, { first_name: 'Ana', token: 'ana-phone' });
    await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z', class_name: 'Spin' });
    clock.set(new Date('2026-11-23T11:00:00Z'));
    await app.automation.engine.tick();
    expect(standIn.state.delivered.map((d) => [d.token, d.notification.title, d.notification.body])).toEqual([
      ['ana-phone', 'High five, Ana!', 'Great work in Spin.'],
    ]);
    const pushes = await database.query<{ client_id: number; sent_by: string; source: string; status: string }>(
      'SELECT client_id::int AS client_id, sent_by, source, status FROM pushes',
    );
    expect(pushes).toEqual([{ client_id: ana, sent_by: 'automated', source: 'high-fives', status: 'sent' }]);
    const clientPage = await app.push.recent(ana);
    expect(clientPage.map((p) => [p.sent_by, p.title])).toEqual([['automated', 'High five, Ana!']]);
  });

  it('retries later when FCM keeps failing, then delivers once', async () => {
    await addTemplate(database, 1, 'High five!', 'Nice class.');
    const ana = await addClient(database, { token: 'ana-phone' });
    await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
    // More 503s than the FCM client's own retries: the engine has to come back later.
    standIn.state.failures.push({ status: 503, times: 10 });
    clock.set(new Date('2026-11-23T11:00:00Z'));
    await app.automation.engine.tick();
    expect(await pushRows(database)).toMatchObject([{ status: 'pending', attempts: 1 }]);
    standIn.state.failures.length = 0;
    clock.advance(5 * MINUTE);
    await app.automation.engine.tick();
    expect(await pushRows(database)).toMatchObject([{ status: 'sent', attempts: 2 }]);
    expect(standIn.state.delivered).toHaveLength(1);
  });

  it('records a dead token as failed without retrying, and skips a client with no token left', async () => {
    await addTemplate(database, 1, 'High five!', 'Nice class.');
    const ana = await addClient(database, { token: 'ana-old-phone' });
    await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
    await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-24T09:00:00Z' });
    standIn.state.unregistered.add('ana-old-phone');
    clock.set(new Date('2026-11-23T11:00:00Z'));
    await app.automation.engine.tick();
    expect(await pushRows(database)).toMatchObject([{ status: 'failed', attempts: 1 }]);
    clock.set(new Date('2026-11-24T11:00:00Z'));
    await app.automation.engine.tick();
    expect((await pushRows(database)).map((r) => [r.status, r.skip_reason])).toEqual([
      ['failed', null],
      ['skipped', 'no_token'],
    ]);
  });
});
