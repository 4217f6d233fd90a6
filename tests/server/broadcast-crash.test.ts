import { afterAll, describe, expect, it } from 'vitest';
import type { Broadcast, BroadcastCreated } from '@contract/broadcasts';
import { startFcmStandIn, type FcmStandIn } from '../support/fcmStandIn';
import { E2E_STAFF, scratchPostgres, startServer, type RunningServer } from '../support/serverProcess';

/**
 * A broadcast through a SIGKILL: the real server sends to the demo clients with a device through a
 * local FCM stand-in (live mode, paced to a small quota so the kill lands mid-way), is killed, and
 * restarted on the same data. The pushes in flight at the kill are sent again with the same collapse
 * key, so every recipient's device shows the message exactly once (the stand-in shows a message with
 * the same tag in place of the first, as Android and iOS do); `sent` is exactly what the devices show,
 * nothing is `failed` as in doubt, and sending resumes within 30 s of the restart (the job's lease is
 * 20 s, not the 5 minutes it was).
 */
const SETTINGS = '/api/admin/v1/automated-messages/1/settings';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function signIn(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.url}/login`, { method: 'POST', body: new URLSearchParams(E2E_STAFF), redirect: 'manual' });
  if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

async function api<T>(server: RunningServer, cookie: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { cookie, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function crashMidBroadcast(env: Record<string, string>, standIn: FcmStandIn, label: string) {
  const fcmEnv = {
    FCM_SERVICE_ACCOUNT_JSON: JSON.stringify(standIn.serviceAccount),
    FCM_API_URL: standIn.url,
    // 100 a second: the broadcast to ~1,200 clients takes a while, so the kill lands mid-way.
    FCM_QUOTA_PER_MINUTE: '6000',
  };
  let server = await startServer({ env: { ...env, ...fcmEnv, SEED_DEMO: 'true' } });
  const dataDir = server.dataDir;
  try {
    let cookie = await signIn(server);
    // Whatever the hour of the run: no quiet hours.
    await api(server, cookie, 'PUT', SETTINGS, { global: { quiet_start: '00:00', quiet_end: '00:00' } });
    const created = await api<BroadcastCreated>(server, cookie, 'POST', '/api/admin/v1/broadcasts', {
      filter: { app_installed: true, opted_out: false },
      title: 'Crash',
      body: 'Hi {first_name}',
    });
    expect(created.recipients).toBeGreaterThan(500);
    const killAt = 100 + Math.floor(Math.random() * 300);
    while (standIn.state.delivered.length < killAt) await sleep(20);
    server.process.kill('SIGKILL');
    await server.stop();
    const deliveredAtKill = standIn.state.delivered.length;
    expect(deliveredAtKill).toBeLessThan(created.recipients);

    server = await startServer({ dataDir, env: { ...env, ...fcmEnv } });
    const restarted = performance.now();
    while (standIn.state.delivered.length === deliveredAtKill) await sleep(100);
    const resumedAfterMs = performance.now() - restarted;
    cookie = await signIn(server);
    let broadcast: Broadcast;
    for (;;) {
      broadcast = await api<Broadcast>(server, cookie, 'GET', `/api/admin/v1/broadcasts/${created.id}`);
      if (broadcast.status === 'sent') break;
      await sleep(250);
    }
    const tokens = standIn.state.delivered.map((d) => d.token);
    const twice = tokens.filter((token, i) => tokens.indexOf(token) !== i);
    const { counts } = broadcast;
    console.log(
      `${label}: killed after ${deliveredAtKill} of ${created.recipients} delivered; resumed ${Math.round(resumedAfterMs)} ms after the restart; ` +
        `sent again after the stop and shown in place of the first: ${standIn.state.replaced}; ${JSON.stringify(counts)}`,
    );
    expect(twice, 'devices that show the message twice').toEqual([]);
    expect(counts.sent + counts.failed + counts.skipped + counts.pending + counts.retrying).toBe(created.recipients);
    // Exactly one message per recipient sent: each device shows it once, and nothing is left in doubt.
    expect(counts).toMatchObject({ failed: 0, pending: 0, retrying: 0 });
    expect(tokens.length).toBe(counts.sent);
    // Every recipient has a device: none is "no device", and the stop sent nobody's message twice.
    expect(counts.skipped_by_reason.no_token ?? 0).toBe(0);
    expect(new Set(standIn.state.delivered.map((d) => d.data?.broadcast_id))).toEqual(new Set([String(created.id)]));
    expect(resumedAfterMs).toBeLessThan(30_000);
  } finally {
    await server.stop();
  }
}

describe('a broadcast through a SIGKILL', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it(
    'on PGlite: each recipient shown the message exactly once, counts that match the stand-in, sending resumes soon after the restart',
    { timeout: 600_000 },
    async () => {
      const standIn = await startFcmStandIn();
      cleanups.push(() => standIn.close());
      await crashMidBroadcast({}, standIn, 'PGlite');
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL: the same', { timeout: 600_000 }, async () => {
    const standIn = await startFcmStandIn();
    cleanups.push(() => standIn.close());
    const scratch = await scratchPostgres(process.env.TEST_DATABASE_URL!, 'sc_bcrash');
    cleanups.push(scratch.drop);
    await crashMidBroadcast({ DATABASE_URL: scratch.url }, standIn, 'PostgreSQL');
  });
});
