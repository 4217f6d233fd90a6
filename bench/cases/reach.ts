import type { AutomationSettingsResponse } from '@contract/automation';
import type { Broadcast, BroadcastCreated } from '@contract/broadcasts';
import type { Figure } from '../lib/figures';
import type { BenchCase } from './types';

const SETTINGS = '/api/admin/v1/automated-messages/1/settings';
/** A broadcast that has not finished by then is a failure of the figure, not a long wait. */
const GIVE_UP_MS = 30 * 60_000;

/**
 * Issue 23 point 5: a broadcast to every new client (~8 % of the data set: ~80,000 at 1,000,000) sent
 * through the running server's job queue and the FCM sandbox, from POST to `sent`. Quiet hours are
 * lifted for the run (it may be night in the studio's time zone) and put back after.
 */
export const reachCase: BenchCase = async ({ client }) => {
  const before = await client.get<AutomationSettingsResponse>(SETTINGS);
  await client.put(SETTINGS, { global: { quiet_start: '00:00', quiet_end: '00:00' } });
  try {
    const started = performance.now();
    const created = await client.post<BroadcastCreated>('/api/admin/v1/broadcasts', { filter: { new: true }, title: 'Bench', body: 'Hi {first_name}' });
    let broadcast: Broadcast;
    for (;;) {
      broadcast = await client.get<Broadcast>(`/api/admin/v1/broadcasts/${created.id}`);
      if (broadcast.status === 'sent') break;
      if (performance.now() - started > GIVE_UP_MS) throw new Error(`broadcast ${created.id} still ${broadcast.status} after ${GIVE_UP_MS / 60_000} minutes`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const seconds = (performance.now() - started) / 1000;
    const { sent, failed, skipped } = broadcast.counts;
    const label = `broadcast to ${created.recipients.toLocaleString('en-US')} clients through the FCM sandbox`;
    const figures: Figure[] = [
      { group: 'reach', name: `${label}: from sending to sent`, unit: 's', value: Math.round(seconds * 10) / 10, detail: { sent, failed, skipped } },
      { group: 'reach', name: `${label}: recipients per second`, unit: 'ops/s', value: Math.round(created.recipients / seconds) },
    ];
    return figures;
  } finally {
    await client.put(SETTINGS, { global: { quiet_start: before.global.quiet_start, quiet_end: before.global.quiet_end } });
  }
};
