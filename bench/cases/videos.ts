import { timeIt } from '../lib/stats';
import type { BenchCase } from './types';

const list = (params: Record<string, unknown>) =>
  `/api/admin/v1/videos?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, JSON.stringify(value)]))}`;

/** The Video Manager's list at the data set's size (10,000 videos): every page is paged, sorted and filtered on the server. */
export const videosCase: BenchCase = async ({ client, samples }) => {
  const queries: [string, string][] = [
    ['first page by title', list({ sort: ['title', 'ASC'], range: [0, 24] })],
    ['page at offset 9,975 by title', list({ sort: ['title', 'ASC'], range: [9975, 9999] })],
    ['first page by category', list({ sort: ['category', 'DESC'], range: [0, 24] })],
    ['title search "yoga"', list({ sort: ['title', 'ASC'], range: [0, 24], filter: { q: 'yoga' } })],
    ['level + enabled + category filters', list({ sort: ['title', 'ASC'], range: [0, 24], filter: { access_level_id: 2, enabled: true, category_id: 3 } })],
    // The per-video figures, sorted and filtered.
    ['first page by plays in 30 days', list({ sort: ['plays_30d', 'DESC'], range: [0, 24] })],
    ['first page by unique viewers', list({ sort: ['viewers_30d', 'DESC'], range: [0, 24] })],
    ['never played', list({ sort: ['title', 'ASC'], range: [0, 24], filter: { never_played: true } })],
  ];
  const figures = [];
  for (const [name, path] of queries) {
    const timing = await timeIt(samples, () => client.get(path));
    figures.push({
      group: 'videos',
      name: `Video Manager list: ${name} (p95)`,
      unit: 'ms' as const,
      target: { kind: 'max' as const, value: 200 },
      value: timing.p95,
      detail: { ...timing },
    });
  }
  // The spec's whole-library answer: a kept copy while the library is unchanged.
  const whole = await timeIt(samples, () => client.get('/api/client/v1/videos'));
  figures.push({ group: 'videos', name: 'spec video list, whole library (p95)', unit: 'ms' as const, value: whole.p95, detail: { ...whole } });
  return figures;
};
