import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, testClock } from '../support/server';
import {
  addClient,
  addTemplate,
  addView,
  addVisit,
  pushRows,
  recordingSender,
  resetAutomation,
  setGlobalSettings,
  setTypeSettings,
} from '../support/automation';

const MINUTE = 60_000;

/** Each trigger on hand-made visits and streams, with the clock moved by hand (studio time zone UTC). */
describe.each(testDatabases())('automated messages: triggers and rules on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock();
  const sender = recordingSender();
  const at = (iso: string) => clock.set(new Date(iso));
  const tick = () => app.automation.engine.tick();
  const sentTo = (clientId: number) => sender.delivered.filter((d) => d.clientId === clientId);

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock, env: { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '0' }, automatedSender: sender });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    await resetAutomation(database);
    sender.delivered.length = 0;
    sender.calls.length = 0;
    sender.script.length = 0;
  });

  describe('High Five', () => {
    it('goes out the set delay after a signed-in class ends, once, with the class filled in', async () => {
      await addTemplate(database, 1, 'High five, {first_name}!', 'Great work in {class_name} today.');
      const ana = await addClient(database, { first_name: 'Ana' });
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z', class_name: 'Power Yoga' });
      at('2026-11-23T10:59:00Z');
      await tick();
      expect(sender.delivered).toEqual([]);
      at('2026-11-23T11:00:00Z');
      await tick();
      expect(sentTo(ana).map((d) => [d.title, d.body])).toEqual([['High five, Ana!', 'Great work in Power Yoga today.']]);
      at('2026-11-23T11:05:00Z');
      await tick();
      await tick();
      expect(sentTo(ana)).toHaveLength(1);
    });

    it('uses its own delay setting', async () => {
      await addTemplate(database, 1, 'High five!', 'Nice class.');
      await setTypeSettings(database, 1, { delay_minutes: 15 });
      const ana = await addClient(database);
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
      at('2026-11-23T10:15:00Z');
      await tick();
      expect(sentTo(ana)).toHaveLength(1);
    });

    it('uses the milestone templates on the 10th class and the ordinary ones otherwise', async () => {
      await addTemplate(database, 1, 'High five!', 'Nice class, {first_name}.');
      await addTemplate(database, 1, 'Milestone', 'Class number {class_count}!');
      const ana = await addClient(database, { first_name: 'Ana' });
      for (let day = 1; day <= 9; day++) await addVisit(database, ana, { kind: 'signed_in', start: `2026-11-${String(day).padStart(2, '0')}T09:00:00Z` });
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-24T09:00:00Z' });
      at('2026-11-23T11:00:00Z');
      await tick();
      at('2026-11-24T11:00:00Z');
      await tick();
      expect(sentTo(ana).map((d) => d.body)).toEqual(['Class number 10!', 'Nice class, Ana.']);
    });

    it('does not message classes from before automated sending started', async () => {
      await resetAutomation(database, '2026-11-23T12:00:00Z');
      await addTemplate(database, 1, 'High five!', 'Nice class.');
      const ana = await addClient(database);
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T10:00:00Z' });
      at('2026-11-23T13:00:00Z');
      await tick();
      expect(sender.delivered).toEqual([]);
    });
  });

  it('Missed Class goes out the next morning at the set time', async () => {
    await addTemplate(database, 2, 'We missed you', 'Hey {first_name}, we missed you in {class_name}.');
    const bo = await addClient(database, { first_name: 'Bo' });
    await addVisit(database, bo, { kind: 'missed', start: '2026-11-23T17:00:00Z', class_name: 'Spin 45' });
    await addVisit(database, bo, { kind: 'signed_in', start: '2026-11-23T06:00:00Z' });
    await setTypeSettings(database, 1, { active: true }); // but no High Five template: skipped
    at('2026-11-23T19:00:00Z');
    await tick();
    at('2026-11-24T08:59:00Z');
    await tick();
    expect(sentTo(bo)).toEqual([]);
    at('2026-11-24T09:00:00Z');
    await tick();
    expect(sentTo(bo).map((d) => d.body)).toEqual(['Hey Bo, we missed you in Spin 45.']);
    expect((await pushRows(database, 'message_type = 1')).map((r) => [r.status, r.skip_reason])).toEqual([['skipped', 'no_template']]);
  });

  it('#notetoself goes out on the chosen day and time to clients active in the last 30 days only', async () => {
    await addTemplate(database, 3, '#notetoself', '{first_name}, plan three workouts.');
    await setTypeSettings(database, 3, { weekday: 0, send_time: '18:00' });
    const streamed = await addClient(database, { first_name: 'Cy' });
    const attended = await addClient(database, { first_name: 'Di' });
    const lapsed = await addClient(database, { first_name: 'Ed' });
    await addClient(database, { first_name: 'Flo' }); // never active
    await addView(database, streamed, '2026-11-25T07:00:00Z');
    await addVisit(database, attended, { kind: 'signed_in', start: '2026-11-02T09:00:00Z' });
    await addView(database, lapsed, '2026-10-20T07:00:00Z');
    at('2026-11-29T17:55:00Z'); // Sunday
    await tick();
    expect(sender.delivered).toEqual([]);
    at('2026-11-29T18:00:00Z');
    await tick();
    expect(sender.delivered.map((d) => d.body).sort()).toEqual(['Cy, plan three workouts.', 'Di, plan three workouts.']);
    at('2026-11-30T18:00:00Z');
    await tick();
    expect(sender.delivered).toHaveLength(2);
  });

  it('Monday Morning goes out every Monday at the set time to clients with the app', async () => {
    await addTemplate(database, 4, 'Monday Motivation', 'New week, new goals.');
    await setTypeSettings(database, 4, { send_time: '08:30' });
    const withApp = await addClient(database);
    const otherWithApp = await addClient(database);
    const noApp = await addClient(database, { token: null });
    at('2026-11-30T08:29:00Z');
    await tick();
    expect(sender.delivered).toEqual([]);
    at('2026-11-30T08:30:00Z');
    await tick();
    expect(sender.delivered.map((d) => d.clientId).sort()).toEqual([withApp, otherWithApp].sort());
    expect(sentTo(noApp)).toEqual([]);
    at('2026-12-07T08:30:00Z');
    await tick();
    expect(sender.delivered).toHaveLength(4);
  });

  it('Cancelled Class goes out the set delay after a late cancellation', async () => {
    await addTemplate(database, 5, 'Class cancelled', 'Sorry {first_name}, {class_name} is off.');
    const gus = await addClient(database, { first_name: 'Gus' });
    await addVisit(database, gus, { kind: 'late_cancelled', start: '2026-11-23T18:00:00Z', modified: '2026-11-23T10:00:00Z', class_name: 'HIIT' });
    at('2026-11-23T10:29:00Z');
    await tick();
    expect(sender.delivered).toEqual([]);
    at('2026-11-23T10:30:00Z');
    await tick();
    expect(sentTo(gus).map((d) => d.body)).toEqual(['Sorry Gus, HIIT is off.']);
  });

  it('Extended Absense goes out once per absence after N days without a class or a stream', async () => {
    await addTemplate(database, 6, 'Come back soon', "It's been {days_absent} days, {first_name}!");
    const hal = await addClient(database, { first_name: 'Hal' });
    const active = await addClient(database, { first_name: 'Ida' });
    await addVisit(database, hal, { kind: 'signed_in', start: '2026-11-09T10:00:00Z' });
    await addView(database, active, '2026-11-09T10:00:00Z');
    await addView(database, active, '2026-11-20T10:00:00Z');
    at('2026-11-23T09:55:00Z');
    await tick();
    expect(sender.delivered).toEqual([]);
    at('2026-11-23T10:00:00Z');
    await tick();
    expect(sentTo(hal).map((d) => d.body)).toEqual(["It's been 14 days, Hal!"]);
    at('2026-11-24T10:00:00Z');
    await tick();
    expect(sender.delivered).toHaveLength(1);
    // Ida streamed on 20 Nov: her 14 days are over on 4 Dec.
    at('2026-12-04T10:00:00Z');
    await tick();
    expect(sentTo(active).map((d) => d.body)).toEqual(["It's been 14 days, Ida!"]);
    // Hal is back for a stream, then away again: a new absence, a new push.
    await addView(database, hal, '2026-11-25T12:00:00Z');
    at('2026-12-09T12:00:00Z');
    await tick();
    expect(sentTo(hal)).toHaveLength(2);
  });

  describe('planning from where the last run stopped', () => {
    it('Monday Morning reaches every client with the app, however far apart their ids are', async () => {
      await addTemplate(database, 4, 'Monday Motivation', 'New week, new goals.');
      const first = await addClient(database);
      // Weekly runs plan a range of client ids per statement; these clients fall in different ranges.
      await database.query("SELECT setval(pg_get_serial_sequence('clients', 'id'), 45000)");
      const middle = await addClient(database);
      await database.query("SELECT setval(pg_get_serial_sequence('clients', 'id'), 130000)");
      const last = await addClient(database);
      at('2026-11-30T08:29:00Z');
      await tick();
      expect(sender.delivered).toEqual([]);
      at('2026-11-30T08:30:00Z');
      await tick();
      expect(sender.delivered.map((d) => d.clientId).sort((a, b) => a - b)).toEqual([first, middle, last]);
    });

    it('catches up an absence that came due while no run happened, and sends it once', async () => {
      await addTemplate(database, 6, 'Come back soon', "It's been {days_absent} days, {first_name}!");
      const jo = await addClient(database, { first_name: 'Jo' });
      await addView(database, jo, '2026-11-09T13:20:00Z');
      at('2026-11-23T09:00:00Z');
      await tick();
      // No run from 09:00 to 16:00 (every instance down); Jo's 14 days were over at 13:20.
      at('2026-11-23T16:00:00Z');
      await tick();
      expect(sentTo(jo).map((d) => d.body)).toEqual(["It's been 14 days, Jo!"]);
      at('2026-11-23T16:05:00Z');
      await tick();
      expect(sentTo(jo)).toHaveLength(1);
    });

    it('does not replay absences that came due while Extended Absense was paused', async () => {
      await addTemplate(database, 6, 'Come back soon', "It's been {days_absent} days, {first_name}!");
      const kim = await addClient(database, { first_name: 'Kim' });
      const lea = await addClient(database, { first_name: 'Lea' });
      await addView(database, kim, '2026-11-09T10:00:00Z');
      await addView(database, lea, '2026-11-09T14:00:00Z');
      at('2026-11-23T09:00:00Z');
      await tick();
      await setTypeSettings(database, 6, { active: false });
      at('2026-11-23T12:00:00Z');
      await tick();
      await setTypeSettings(database, 6, { active: true });
      at('2026-11-23T14:00:00Z');
      await tick();
      // Kim's absence came due (10:00) while the type was paused; Lea's (14:00) after it was back on.
      expect(sender.delivered.map((d) => d.clientId)).toEqual([lea]);
    });
  });

  describe('rules', () => {
    it('defers sends inside quiet hours to the end of them, in the studio time zone', async () => {
      await addTemplate(database, 1, 'High five!', 'Nice class.');
      const ana = await addClient(database);
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T19:30:00Z' }); // ends 20:30, due 21:30
      at('2026-11-23T21:30:00Z');
      await tick();
      expect(sender.delivered).toEqual([]);
      expect(await pushRows(database)).toMatchObject([{ status: 'pending', deferred: true }]);
      at('2026-11-24T07:59:00Z');
      await tick();
      expect(sender.delivered).toEqual([]);
      at('2026-11-24T08:00:00Z');
      await tick();
      expect(sentTo(ana)).toHaveLength(1);
    });

    it('honours changed quiet hours', async () => {
      await setGlobalSettings(database, { quiet_start: '12:00', quiet_end: '14:00' });
      await addTemplate(database, 5, 'Class cancelled', 'Sorry.');
      const ana = await addClient(database);
      await addVisit(database, ana, { kind: 'late_cancelled', start: '2026-11-23T18:00:00Z', modified: '2026-11-23T12:00:00Z' });
      at('2026-11-23T12:30:00Z');
      await tick();
      expect(sender.delivered).toEqual([]);
      at('2026-11-23T14:00:00Z');
      await tick();
      expect(sentTo(ana)).toHaveLength(1);
    });

    it('sends at most the daily cap per client per day and counts the rest as skipped', async () => {
      await addTemplate(database, 1, 'High five!', 'Nice class.');
      await addTemplate(database, 5, 'Class cancelled', 'Sorry.');
      const ana = await addClient(database);
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
      await addVisit(database, ana, { kind: 'late_cancelled', start: '2026-11-23T18:00:00Z', modified: '2026-11-23T10:45:00Z' });
      at('2026-11-23T11:15:00Z');
      await tick();
      expect(sentTo(ana)).toHaveLength(1);
      expect((await pushRows(database)).map((r) => [r.message_type, r.status, r.skip_reason])).toEqual([
        [1, 'sent', null],
        [5, 'skipped', 'daily_cap'],
      ]);
      // The next day counts afresh; with a cap of 2 both would have gone out.
      await setGlobalSettings(database, { daily_cap: 2 });
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-24T09:00:00Z' });
      await addVisit(database, ana, { kind: 'late_cancelled', start: '2026-11-24T18:00:00Z', modified: '2026-11-24T10:45:00Z' });
      at('2026-11-24T11:15:00Z');
      await tick();
      expect(sentTo(ana)).toHaveLength(3);
    });

    it('skips opted-out clients and clients without a device token, with the reason', async () => {
      await addTemplate(database, 1, 'High five!', 'Nice class.');
      const optedOut = await addClient(database, { opted_out: true });
      const noToken = await addClient(database, { token: null });
      for (const client of [optedOut, noToken]) await addVisit(database, client, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
      sender.script.push({ status: 'no_token', reason: 'no device token' });
      at('2026-11-23T11:00:00Z');
      await tick();
      expect((await pushRows(database)).map((r) => [r.client_id, r.status, r.skip_reason])).toEqual([
        [optedOut, 'skipped', 'opted_out'],
        [noToken, 'skipped', 'no_token'],
      ]);
      expect(sender.delivered).toEqual([]);
    });

    it('rotates the enabled templates so nobody gets the same text twice in a row', async () => {
      const a = await addTemplate(database, 1, 'A', 'First text');
      await addTemplate(database, 1, 'Off', 'Disabled text', false);
      const b = await addTemplate(database, 1, 'B', 'Second text');
      const c = await addTemplate(database, 1, 'C', 'Third text');
      const ana = await addClient(database);
      const bo = await addClient(database);
      for (let day = 23; day <= 27; day++) {
        await addVisit(database, ana, { kind: 'signed_in', start: `2026-11-${day}T09:00:00Z` });
        if (day >= 25) await addVisit(database, bo, { kind: 'signed_in', start: `2026-11-${day}T09:00:00Z` });
        at(`2026-11-${day}T11:00:00Z`);
        await tick();
      }
      expect(sentTo(ana).map((d) => d.title)).toEqual(['A', 'B', 'C', 'A', 'B']);
      expect(sentTo(bo).map((d) => d.title)).toEqual(['A', 'B', 'C']);
      const used = (await pushRows(database, "status = 'sent'")).map((r) => r.push_message_id);
      expect(new Set(used)).toEqual(new Set([a, b, c]));
    });

    it('fills placeholders with fallbacks when a value is missing', async () => {
      await addTemplate(database, 1, 'High five, {first_name}!', 'Great work in {class_name}.');
      const nameless = await addClient(database, { first_name: null });
      await addVisit(database, nameless, { kind: 'signed_in', start: '2026-11-23T09:00:00Z', class_name: null });
      at('2026-11-23T11:00:00Z');
      await tick();
      expect(sentTo(nameless).map((d) => [d.title, d.body])).toEqual([['High five, there!', 'Great work in class.']]);
    });

    it('skips a paused type and sends nothing for it', async () => {
      await addTemplate(database, 1, 'High five!', 'Nice class.');
      await setTypeSettings(database, 1, { active: false });
      const ana = await addClient(database);
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
      at('2026-11-23T11:00:00Z');
      await tick();
      expect(sender.delivered).toEqual([]);
      expect(await pushRows(database)).toEqual([]);
    });
  });

  it('drops a waiting push when its type is paused, and one that could not go out within a day', async () => {
    await addTemplate(database, 1, 'High five!', 'Nice class.');
    const ana = await addClient(database);
    const bo = await addClient(database);
    await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T19:30:00Z' }); // due in quiet hours
    at('2026-11-23T21:30:00Z');
    await tick();
    await setTypeSettings(database, 1, { active: false });
    at('2026-11-24T08:00:00Z');
    await tick();
    expect((await pushRows(database)).map((r) => [r.client_id, r.status, r.skip_reason])).toEqual([[ana, 'skipped', 'paused']]);

    // Planned, then the servers were down for more than a day.
    await setTypeSettings(database, 1, { active: true });
    await addVisit(database, bo, { kind: 'signed_in', start: '2026-11-24T09:00:00Z' });
    at('2026-11-24T11:00:00Z');
    sender.script.push({ status: 'failed', error: 'UNAVAILABLE', retryable: true });
    await tick();
    at('2026-11-25T11:30:00Z');
    await tick();
    expect((await pushRows(database)).find((r) => r.client_id === bo)).toMatchObject({ status: 'skipped', skip_reason: 'expired' });
    expect(sentTo(bo)).toEqual([]);
  });

  describe('failures', () => {
    it('retries a failed send with growing waits and sends it once it gets through', async () => {
      await addTemplate(database, 1, 'High five!', 'Nice class.');
      const ana = await addClient(database);
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
      sender.script.push({ status: 'failed', error: 'UNAVAILABLE', retryable: true }, { status: 'failed', error: 'UNAVAILABLE', retryable: true });
      at('2026-11-23T11:00:00Z');
      await tick();
      expect(await pushRows(database)).toMatchObject([{ status: 'pending', attempts: 1, last_error: 'UNAVAILABLE' }]);
      await tick(); // not due again yet
      expect(sender.calls).toHaveLength(1);
      clock.advance(2 * MINUTE);
      await tick();
      expect(sender.calls).toHaveLength(2);
      clock.advance(1 * MINUTE);
      await tick();
      expect(sender.calls).toHaveLength(2); // the second wait is longer
      clock.advance(3 * MINUTE);
      await tick();
      expect(sentTo(ana)).toHaveLength(1);
      expect(await pushRows(database)).toMatchObject([{ status: 'sent', attempts: 3 }]);
      // every attempt used its own key, so the push service never answers an old failure instead
      expect(new Set(sender.calls.map((c) => c.key)).size).toBe(3);
    });

    it('records a push as failed after the last attempt, and at once when the failure is final', async () => {
      await addTemplate(database, 1, 'High five!', 'Nice class.');
      const ana = await addClient(database);
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
      for (let i = 0; i < 4; i++) sender.script.push({ status: 'failed', error: 'INTERNAL', retryable: true });
      at('2026-11-23T11:00:00Z');
      await tick();
      for (let i = 0; i < 6; i++) {
        clock.advance(10 * MINUTE);
        await tick();
      }
      expect(sender.calls).toHaveLength(4);
      expect(await pushRows(database)).toMatchObject([{ client_id: ana, status: 'failed', attempts: 4, last_error: 'INTERNAL' }]);
      // A failed push does not use up the day's cap.
      expect((await database.query<{ sent: number }>('SELECT sent FROM automated_push_days WHERE client_id = $1', [ana]))[0]?.sent ?? 0).toBe(0);

      sender.script.push({ status: 'failed', error: 'UNREGISTERED', retryable: false });
      const bo = await addClient(database);
      await addVisit(database, bo, { kind: 'signed_in', start: '2026-11-23T10:00:00Z' });
      await tick();
      expect((await pushRows(database)).find((r) => r.client_id === bo)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'UNREGISTERED' });
    });

    it('sends a push again when the worker sending it died, once its lease is over', async () => {
      await addTemplate(database, 1, 'High five!', 'Nice class.');
      const ana = await addClient(database);
      await addVisit(database, ana, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
      at('2026-11-23T11:00:00Z');
      await tick();
      // What a worker that died after taking the push (and its slot of the day's cap) leaves behind:
      // the push still waiting, its job running under a lease nobody renews.
      await database.query(`UPDATE automated_pushes SET status = 'pending', finished_at = NULL`);
      await database.query(
        `UPDATE jobs SET state = 'running', locked_by = 'dead', claim_token = 'dead', locked_until = $1, finished_at = NULL, result = NULL WHERE queue = 'automation.send'`,
        [new Date(clock.now().getTime() + 5 * MINUTE).toISOString()],
      );
      sender.delivered.length = 0;
      await tick();
      expect(sender.delivered).toEqual([]);
      clock.advance(6 * MINUTE);
      await tick();
      expect(sentTo(ana)).toHaveLength(1);
    });
  });
});
