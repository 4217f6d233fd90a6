import { load } from '../lib/load';
import type { Figure } from '../lib/figures';
import type { BenchCase } from './types';

/** Concurrent connections of the load run (200 for 60 s, zero errors: bench/README.md). */
export const LOAD_CONNECTIONS = 200;

/**
 * 200 concurrent connections for 60 s (quick mode: 3 s, smoke: 1 s) against the read endpoints a
 * console session uses (client list pages, client details, videos, dashboard stats), round-robin.
 * Any error, timeout or non-2xx answer counts; the target is none at all.
 */
export const loadCase: BenchCase = async ({ client, quick, smoke }) => {
  const seconds = smoke ? 1 : quick ? 3 : 60;
  const page = await client.get<{ clients: { _id: number }[] }>('/api/client/v1/clients/1?page=1&perPage=25');
  const ids = page.clients.slice(0, 10).map((row) => row._id);
  if (ids.length === 0) throw new Error('the data set has no clients to load');
  // The second page as the console asks for it: by cursor (pages by number stop at 10,000 clients).
  const byLastName = await client.get<{ next_cursor: string | null }>('/api/client/v1/clients/1?page=1&perPage=25&sort=last_name&order=ASC');
  const secondPage = `/api/client/v1/clients/1?page=2&perPage=25&sort=last_name&order=ASC${byLastName.next_cursor ? `&after=${encodeURIComponent(byLastName.next_cursor)}` : ''}`;
  const videoList = (params: Record<string, unknown>) =>
    `/api/admin/v1/videos?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, JSON.stringify(value)]))}`;
  const paths = [
    '/api/client/v1/clients/1?page=1&perPage=25',
    secondPage,
    '/api/client/v1/clients/2?page=1&perPage=25',
    ...ids.map((id) => `/api/client/v1/client-details/${id}`),
    '/api/client/v1/videos',
    videoList({ sort: ['title', 'ASC'], range: [0, 24] }),
    '/api/stats/v1',
  ];
  const result = await load({ url: client.url, cookie: client.cookie, connections: LOAD_CONNECTIONS, seconds, paths });
  const label = `${LOAD_CONNECTIONS} connections, ${seconds} s, ${paths.length} read endpoints`;
  const figures: Figure[] = [
    { group: 'load', name: `requests/s (${label})`, unit: 'req/s', value: result.requestsPerSecond, detail: { paths: paths.length } },
    { group: 'load', name: `p99 latency (${label})`, unit: 'ms', value: result.p99Ms },
    {
      group: 'load',
      name: `errors, timeouts and non-2xx answers (${label})`,
      unit: 'count',
      target: { kind: 'max', value: 0 },
      value: result.errors + result.non2xx,
      detail: { errors: result.errors, non2xx: result.non2xx },
    },
  ];
  return figures;
};
