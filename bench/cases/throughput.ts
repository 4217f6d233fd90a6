import { load, type LoadRequest, type LoadResult } from '../lib/load';
import type { Figure } from '../lib/figures';
import type { BenchCase, BenchContext } from './types';

/** Endpoints measured under concurrent load; search adds its own once it exists (see searchLoadRequests). */
export const throughputTargets: Array<{
  name: string;
  requests: (context: BenchContext) => Promise<LoadRequest[]>;
  targets?: { 200: { rps: number; p99: number } };
}> = [
  {
    name: 'client details',
    requests: async ({ client }) => {
      // The newest 500: pages by number stop at 10,000 clients, and these are not the rows the first list page warmed.
      const { clients } = await client.get<{ clients: Array<{ _id: number }> }>('/api/client/v1/clients/1?perPage=500&sort=_id&order=DESC');
      return clients.map(({ _id }) => ({ path: `/api/client/v1/client-details/${_id}` }));
    },
    targets: { 200: { rps: 2000, p99: 250 } },
  },
];

const figuresOf = (name: string, run: LoadResult, target?: { rps: number; p99: number }): Figure[] => [
  {
    group: 'throughput',
    name: `${name}, ${run.connections} connections: requests/s`,
    unit: 'req/s',
    ...(target ? { target: { kind: 'min' as const, value: target.rps } } : {}),
    value: run.requestsPerSecond,
    detail: { errors: run.errors, non2xx: run.non2xx },
  },
  {
    group: 'throughput',
    name: `${name}, ${run.connections} connections: p99`,
    unit: 'ms',
    ...(target ? { target: { kind: 'max' as const, value: target.p99 } } : {}),
    value: run.p99Ms,
  },
  {
    group: 'throughput',
    name: `${name}, ${run.connections} connections: errors and non-2xx answers`,
    unit: 'count',
    target: { kind: 'max', value: 0 },
    value: run.errors + run.non2xx,
  },
];

/** Requests per second and p99 at 50 and 200 concurrent connections (autocannon). */
export const throughputCase: BenchCase = async (context) => {
  const figures: Figure[] = [];
  for (const endpoint of throughputTargets) {
    const requests = await endpoint.requests(context);
    for (const connections of [50, 200] as const) {
      const run = await load({ url: context.client.url, cookie: context.client.cookie, connections, seconds: context.loadSeconds, requests });
      figures.push(...figuresOf(endpoint.name, run, connections === 200 ? endpoint.targets?.[200] : undefined));
    }
  }
  return figures;
};
