import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { PushNotificationResponse } from '@contract/clientActions';
import type { Database } from '../../server/src/db/client';
import { createFcmClient } from '../../server/src/integrations/fcm/client';
import { MAX_PUSH_RETRIES, pushRetryDelayMs, pushVerdict } from '../../server/src/push/retry';
import { PUSH_RETRY } from '../../server/src/push/service';
import { insertClient } from '../support/clientFixtures';
import { testDatabases } from '../support/databases';
import { startFcmStandIn, type FcmStandIn } from '../support/fcmStandIn';
import { createTestApp, signIn, testClock } from '../support/server';

const NOW = new Date('2026-11-22T12:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;

describe('push retry rules', () => {
  it('waits at least a minute on QUOTA_EXCEEDED, doubling each time, and never less than Retry-After', () => {
    expect(pushRetryDelayMs('QUOTA_EXCEEDED', 1, undefined, 0)).toBe(MINUTE);
    expect(pushRetryDelayMs('QUOTA_EXCEEDED', 2, undefined, 0)).toBe(2 * MINUTE);
    expect(pushRetryDelayMs('QUOTA_EXCEEDED', 1, 3 * SECOND, 0)).toBe(MINUTE);
    expect(pushRetryDelayMs('QUOTA_EXCEEDED', 1, 5 * MINUTE, 1)).toBe(5 * MINUTE);
    expect(pushRetryDelayMs('QUOTA_EXCEEDED', 1, undefined, 1)).toBe(72 * SECOND);
    expect(pushRetryDelayMs('QUOTA_EXCEEDED', 30, undefined, 0)).toBe(60 * MINUTE);
  });

  it('backs off exponentially from 10 s on UNAVAILABLE', () => {
    expect([1, 2, 3, 4].map((attempt) => pushRetryDelayMs('UNAVAILABLE', attempt, undefined, 0))).toEqual([10 * SECOND, 20 * SECOND, 40 * SECOND, 80 * SECOND]);
    expect(pushRetryDelayMs('UNAVAILABLE', 1, 45 * SECOND, 0)).toBe(45 * SECOND);
  });

  it('calls a push queued while a device waits for a retry, sent once one device got it', () => {
    const deferred = { token: 'a', outcome: 'deferred' as const, code: 'QUOTA_EXCEEDED', retry_at: '2026-11-22T12:01:00.000Z' };
    expect(pushVerdict([deferred])).toEqual({
      status: 'queued',
      reason: 'FCM asked to wait (QUOTA_EXCEEDED): the push is queued and will be retried at 2026-11-22 12:01:00 UTC',
    });
    expect(pushVerdict([deferred, { token: 'b', outcome: 'sent' }]).status).toBe('sent');
    expect(pushVerdict([{ token: 'b', outcome: 'dead', code: 'INVALID_ARGUMENT' }]).status).toBe('failed');
  });
});

describe.each(testDatabases())('a staff push FCM asks to wait for, on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let standIn: FcmStandIn;
  let kim: number;
  const clock = testClock(NOW);

  const push = async (title: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/client/v1/client-details/push-notification',
      headers: { cookie: await signIn(app) },
      payload: { notification: { title, body: 'See you Monday' }, mb_client_id: '100777', email_address: 'kim@studio.test' },
    });
    expect(response.statusCode, response.body).toBe(200);
    return PushNotificationResponse.parse(response.json());
  };
  const record = async (id: number) =>
    (
      await database.query<{ status: string; reason: string | null; results: { outcome: string; retry_at?: string }[] }>(
        'SELECT status, reason, results FROM pushes WHERE id = $1',
        [id],
      )
    )[0]!;
  const retries = () => database.query<{ run_at: Date; state: string }>(`SELECT run_at, state FROM jobs WHERE queue = $1 ORDER BY id`, [PUSH_RETRY]);
  const runAt = async (at: Date) => {
    clock.set(at);
    await app.jobs.runDue();
  };

  beforeAll(async () => {
    database = await open();
    standIn = await startFcmStandIn();
    app = await createTestApp(database, {
      clock,
      fcm: createFcmClient({ apiUrl: standIn.url, serviceAccount: standIn.serviceAccount }, { sleep: async () => undefined, now: clock.now }),
    });
    kim = await insertClient(database, { first_name: 'Kim', email_address: 'kim@studio.test', mb_client_id: '100777', mb_site_id: -99 });
    await database.query(`INSERT INTO debug_records (client_id, firebase_token_new, platform, is_ipad, sent_at) VALUES ($1, 'kim-token', 'ios', false, $2)`, [
      kim,
      NOW.toISOString(),
    ]);
  });
  beforeEach(async () => {
    clock.set(NOW);
    await database.execScript('DELETE FROM pushes; DELETE FROM jobs;');
    await database.query(`UPDATE job_schedules SET next_run_at = $1::timestamptz + every_ms * interval '1 millisecond'`, [NOW.toISOString()]);
  });
  afterEach(() => {
    standIn.state.failures.length = 0;
    standIn.state.requests.length = 0;
    standIn.state.delivered.length = 0;
  });
  afterAll(async () => {
    await app.close();
    await standIn.close();
    await database.close();
  });

  it('QUOTA_EXCEEDED: answers at once "queued", then sends from the job queue no sooner than a minute later', async () => {
    standIn.fail({ status: 429, retryAfter: '3', times: 1 });

    const answer = await push('Quota');

    expect(answer).toMatchObject({ updated: false, queued: true, results: [{ token: 'kim-token', outcome: 'deferred', code: 'QUOTA_EXCEEDED' }] });
    expect(answer.message).toMatch(/^FCM asked to wait \(QUOTA_EXCEEDED\): the push is queued and will be retried at 2026-11-22 12:01:\d\d UTC$/);
    expect(standIn.sends()).toHaveLength(1);
    expect(await record(answer.push_id)).toMatchObject({ status: 'queued' });
    const [job] = await retries();
    expect(job!.run_at.getTime() - NOW.getTime()).toBeGreaterThanOrEqual(MINUTE);

    await runAt(new Date(NOW.getTime() + MINUTE - SECOND));
    expect(standIn.state.delivered).toHaveLength(0);
    await runAt(job!.run_at);
    expect(standIn.state.delivered.map((d) => d.notification.title)).toEqual(['Quota']);
    expect(await record(answer.push_id)).toMatchObject({ status: 'sent', reason: null, results: [{ outcome: 'sent' }] });
  });

  it('QUOTA_EXCEEDED with a longer Retry-After waits that long', async () => {
    standIn.fail({ status: 429, retryAfter: '300', times: 1 });
    await push('Later');
    const [job] = await retries();
    expect(job!.run_at.getTime() - NOW.getTime()).toBeGreaterThanOrEqual(5 * MINUTE);
  });

  it('UNAVAILABLE: retried with exponential back-off, then counted failed after the last retry', async () => {
    standIn.fail({ status: 503, times: Infinity });
    const answer = await push('Down');
    expect(answer).toMatchObject({ updated: false, queued: true });
    const gaps: number[] = [];
    for (let i = 0; i < MAX_PUSH_RETRIES; i++) {
      const pending = (await retries()).filter((job) => job.state === 'queued');
      expect(pending).toHaveLength(1);
      gaps.push(pending[0]!.run_at.getTime() - clock.now().getTime());
      await runAt(pending[0]!.run_at);
    }
    expect(gaps.slice(1).every((gap, i) => gap >= 2 * gaps[i]! * (1 / 1.2))).toBe(true);
    expect(gaps[0]).toBeGreaterThanOrEqual(10 * SECOND);
    expect((await retries()).filter((job) => job.state === 'queued')).toHaveLength(0);
    const stored = await record(answer.push_id);
    expect(stored.status).toBe('failed');
    expect(stored.reason).toContain(`gave up after ${MAX_PUSH_RETRIES} retries`);
    expect(standIn.sends()).toHaveLength(1 + MAX_PUSH_RETRIES);
  });
});
