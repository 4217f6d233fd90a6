import { timeIt } from '../lib/stats';
import type { BenchCase } from './types';

/** The dashboard calls over HTTP: the stats call must stay under 100 ms at the 95th percentile (bench/README.md). */
export const statsCase: BenchCase = async ({ client, samples }) => {
  const stats = await timeIt(samples, () => client.get('/api/stats/v1'));
  const trends = await timeIt(Math.max(10, Math.ceil(samples / 4)), () => client.get('/api/admin/v1/stats/trends'));
  return [
    { group: 'stats', name: 'GET /api/stats/v1 (p95)', unit: 'ms', target: { kind: 'max', value: 100 }, value: stats.p95, detail: { ...stats } },
    { group: 'stats', name: 'GET /api/admin/v1/stats/trends (p95)', unit: 'ms', value: trends.p95, detail: { ...trends } },
  ];
};
