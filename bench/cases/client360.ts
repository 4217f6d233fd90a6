import { timeIt } from '../lib/stats';
import type { Figure } from '../lib/figures';
import type { BenchCase } from './types';

/** A deterministic pick, so two runs open the same clients. */
function sequence(seed: number) {
  let state = seed >>> 0;
  return (max: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % max;
  };
}

/**
 * The client profile: the client page as it opens now, the details, the "at a glance"
 * header, the first timeline page, the notes and tags, all in parallel as the console asks for them
 * (target: p95 ≤ 100 ms at 1,000,000 clients), and each of the new calls alone. Clients are picked
 * over the whole id range, so they are cold rows, not the same few cached ones.
 */
export const client360Case: BenchCase = async ({ client, samples }) => {
  const first = await client.get<{ clients: { _id: number }[] }>('/api/client/v1/clients/1?perPage=1&sort=_id&order=DESC');
  const maxId = first.clients[0]?._id ?? 1;
  const pick = sequence(24);
  const anyClient = () => 1 + pick(maxId);
  const admin = (id: number, rest: string) => `/api/admin/v1/clients/${id}/${rest}`;
  const cases: [string, number | undefined, () => Promise<unknown>][] = [
    [
      'client page with its header and first timeline page, in parallel',
      100,
      () => {
        const id = anyClient();
        return Promise.all([
          client.get(`/api/client/v1/client-details/${id}`),
          client.get(admin(id, 'glance')),
          client.get(admin(id, 'timeline')),
          client.get(admin(id, 'notes')),
          client.get(admin(id, 'tags')),
        ]);
      },
    ],
    ['at a glance alone', undefined, () => client.get(admin(anyClient(), 'glance'))],
    ['first timeline page alone', undefined, () => client.get(admin(anyClient(), 'timeline'))],
    ['timeline of classes and streams only', undefined, () => client.get(admin(anyClient(), 'timeline?kinds=visit,stream'))],
    ['running overrides, first page', undefined, () => client.get('/api/admin/v1/overrides?range=%5B0%2C24%5D')],
  ];
  const figures: Figure[] = [];
  for (const [name, target, run] of cases) {
    const timing = await timeIt(samples, run);
    figures.push({
      group: 'client360',
      name: `${name} (p95)`,
      unit: 'ms',
      ...(target ? { target: { kind: 'max' as const, value: target } } : {}),
      value: timing.p95,
      detail: { ...timing },
    });
  }
  return figures;
};
