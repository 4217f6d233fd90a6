import type { AutomationSettingsResponse } from '@contract/automation';
import type { Figure } from '../lib/figures';
import { broadcastUntilSent } from './broadcast';
import type { BenchCase } from './types';

const SETTINGS = '/api/admin/v1/automated-messages/1/settings';

/**
 * A broadcast to every new client (~8 % of the data set: ~80,000 at 1,000,000) sent
 * through the running server's job queue and the FCM sandbox, from POST to `sent`. Quiet hours are
 * lifted for the run (it may be night in the studio's time zone) and put back after.
 */
export const reachCase: BenchCase = async ({ client }) => {
  const before = await client.get<AutomationSettingsResponse>(SETTINGS);
  await client.put(SETTINGS, { global: { quiet_start: '00:00', quiet_end: '00:00' } });
  try {
    const { broadcast, seconds } = await broadcastUntilSent(client, { new: true });
    const { sent, failed, skipped } = broadcast.counts;
    const label = `broadcast to ${broadcast.recipients.toLocaleString('en-US')} clients through the FCM sandbox`;
    const figures: Figure[] = [
      { group: 'reach', name: `${label}: from sending to sent`, unit: 's', value: Math.round(seconds * 10) / 10, detail: { sent, failed, skipped } },
      { group: 'reach', name: `${label}: recipients per second`, unit: 'ops/s', value: Math.round(broadcast.recipients / seconds) },
    ];
    return figures;
  } finally {
    await client.put(SETTINGS, { global: { quiet_start: before.global.quiet_start, quiet_end: before.global.quiet_end } });
  }
};
