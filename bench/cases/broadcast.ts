import type { AutomationSettingsResponse } from '@contract/automation';
import type { Broadcast, BroadcastCreated } from '@contract/broadcasts';
import { startFcmStandIn } from '../../tests/support/fcmStandIn';
import { startServer } from '../../tests/support/serverProcess';
import { signedInClient, type BenchClient } from '../lib/client';
import type { Figure } from '../lib/figures';
import type { BenchCase } from './types';

const SETTINGS = '/api/admin/v1/automated-messages/1/settings';
/** A broadcast that has not finished by then is a failure of the figure, not a long wait. */
const GIVE_UP_MS = 30 * 60_000;
/**
 * Two of the seed's eleven statuses, with the app: ~11 % of the clients (~109,000 at 1,000,000),
 * each with a device, so every recipient is a real send rather than a cheap skip.
 */
const RECIPIENTS = { status: ['Non-Member', 'Expired'], app_installed: true };
/** The live run's FCM stand-in allows this many sends a minute; the server is told 10 times more. */
const STAND_IN_PER_MINUTE = 6000;

/** Quiet hours lifted and the daily cap at its highest for `work` (earlier runs today took slots), then put back. */
async function withOpenChannel<T>(client: BenchClient, work: () => Promise<T>): Promise<T> {
  const before = await client.get<AutomationSettingsResponse>(SETTINGS);
  await client.put(SETTINGS, { global: { quiet_start: '00:00', quiet_end: '00:00', daily_cap: 20 } });
  try {
    return await work();
  } finally {
    await client.put(SETTINGS, { global: { quiet_start: before.global.quiet_start, quiet_end: before.global.quiet_end, daily_cap: before.global.daily_cap } });
  }
}

/** POST → sent, read every half second: the creation's answer time and the whole run's. */
export async function broadcastUntilSent(client: BenchClient, filter: object) {
  const started = performance.now();
  const created = await client.post<BroadcastCreated>('/api/admin/v1/broadcasts', { filter, title: 'Bench', body: 'Hi {first_name}' });
  const answeredMs = performance.now() - started;
  let broadcast: Broadcast;
  for (;;) {
    broadcast = await client.get<Broadcast>(`/api/admin/v1/broadcasts/${created.id}`);
    if (broadcast.status === 'sent') break;
    if (performance.now() - started > GIVE_UP_MS) throw new Error(`broadcast ${created.id} still ${broadcast.status} after ${GIVE_UP_MS / 60_000} minutes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { created, broadcast, answeredMs, seconds: (performance.now() - started) / 1000 };
}

/** Once per bench run, whichever database goes first: it runs on its own small server. */
let liveMeasured = false;

/**
 * Live mode against a local FCM stand-in with a quota: a fresh server with the demo data (2,000
 * clients, ~1,200 with a device), told the quota is ten times what the stand-in allows, so it must
 * find the pace itself. Reports the 429s seen and the final counts beside the stand-in's own count.
 */
async function liveRun(): Promise<Figure[]> {
  const standIn = await startFcmStandIn({ quota: { limit: STAND_IN_PER_MINUTE / 60, windowMs: 1000 } });
  const server = await startServer({
    fresh: true,
    env: {
      SEED_DEMO: 'true',
      DATABASE_URL: '',
      FCM_SERVICE_ACCOUNT_JSON: JSON.stringify(standIn.serviceAccount),
      FCM_API_URL: standIn.url,
      FCM_QUOTA_PER_MINUTE: String(STAND_IN_PER_MINUTE * 10),
    },
  });
  try {
    const client = await signedInClient(server);
    const run = await withOpenChannel(client, () => broadcastUntilSent(client, { app_installed: true }));
    const { sent, failed, skipped } = run.broadcast.counts;
    const label = `live mode, ${run.broadcast.recipients.toLocaleString('en-US')} recipients, FCM stand-in allowing ${STAND_IN_PER_MINUTE.toLocaleString('en-US')}/min (server told 10×)`;
    return [
      {
        group: 'broadcast',
        name: `${label}: 429s seen`,
        unit: 'count',
        value: standIn.state.quotaRefusals,
        detail: { sent, failed, skipped, delivered_by_stand_in: standIn.state.delivered.length },
      },
      { group: 'broadcast', name: `${label}: sent = stand-in's delivered count`, unit: 'count', value: sent - standIn.state.delivered.length },
      { group: 'broadcast', name: `${label}: recipients per second`, unit: 'ops/s', value: Math.round(run.broadcast.recipients / run.seconds) },
    ];
  } finally {
    await server.stop();
    await standIn.close();
  }
}

/**
 * A broadcast to ~100,000 recipients (at 1,000,000 clients) through the running server's job queue
 * and the FCM sandbox, from POST to `sent`, in recipients a second; the POST's own answer time; and
 * once per run, live mode against a quota-limited FCM stand-in.
 */
export const broadcastCase: BenchCase = async ({ client }) => {
  const run = await withOpenChannel(client, () => broadcastUntilSent(client, RECIPIENTS));
  const { sent, failed, skipped } = run.broadcast.counts;
  // The POST's count is an estimate beyond 10,000: the figures use the count once fixed.
  const recipients = run.broadcast.recipients;
  const label = `broadcast to ${recipients.toLocaleString('en-US')} clients with a device through the FCM sandbox`;
  const figures: Figure[] = [
    { group: 'broadcast', name: `${label}: POST answered`, unit: 'ms', target: { kind: 'max', value: 1000 }, value: Math.round(run.answeredMs) },
    { group: 'broadcast', name: `${label}: from sending to sent`, unit: 's', value: Math.round(run.seconds * 10) / 10, detail: { sent, failed, skipped } },
    { group: 'broadcast', name: `${label}: recipients per second`, unit: 'ops/s', value: Math.round(recipients / run.seconds) },
  ];
  if (!liveMeasured) {
    liveMeasured = true;
    figures.push(...(await liveRun()));
  }
  return figures;
};
