import { load, type LoadRequest } from '../lib/load';
import type { Figure } from '../lib/figures';
import type { BenchCase } from './types';

type ClientRow = { _id: number; email_address: string | null; mb_client_id: string | null };
type OptionGroups = { videos: Array<{ video_options: Array<{ vimeo_video_id: string | null }> }> };

const CONNECTIONS = 10;

/**
 * update-access-level and favorites writes per second, as staff (or a script acting for
 * them) would send them: distinct clients, a one-week override, favorites added then removed so
 * the data set ends as it began.
 */
export const writesCase: BenchCase = async ({ client, loadSeconds }) => {
  // 500 clients spread over the id range (e-mail order), not the ones the read figures warmed; pages by number stop at 10,000 clients.
  const { clients } = await client.get<{ clients: ClientRow[] }>('/api/client/v1/clients/1?perPage=500&sort=email_address&order=DESC');
  const options = await client.get<OptionGroups>('/api/client/v1/video-options/3');
  const videos = options.videos.flatMap((group) => group.video_options.map((video) => video.vimeo_video_id)).filter((id): id is string => Boolean(id));
  if (clients.length === 0 || videos.length === 0) throw new Error('the data set has no clients or no videos to write to');

  const until = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
  const overrides: LoadRequest[] = clients.map((row, index) => ({
    method: 'POST',
    path: '/api/client/v1/client-details/update-access-level',
    body: { client_id: row._id, new_vod_access_level: 1 + (index % 3), adminOverrideDate: until },
  }));
  const favorites: LoadRequest[] = clients
    .filter((row) => row.email_address || row.mb_client_id)
    .flatMap((row, index) => {
      const body = { vimeo_video_id: videos[index % videos.length]!, email_address: row.email_address, mb_client_id: row.mb_client_id, video_category_id: 30 };
      return (['add', 'remove'] as const).map((update_type) => ({
        method: 'POST' as const,
        path: '/api/client/v1/client-details/favorites-videos-update',
        body: { ...body, update_type },
      }));
    });

  const figures: Figure[] = [];
  for (const [name, requests] of [
    ['update-access-level', overrides],
    ['favorites add/remove', favorites],
  ] as const) {
    const run = await load({ url: client.url, cookie: client.cookie, connections: CONNECTIONS, seconds: loadSeconds, requests });
    figures.push(
      { group: 'writes', name: `${name}, ${CONNECTIONS} connections: writes/s`, unit: 'ops/s', value: run.requestsPerSecond, detail: { p99Ms: run.p99Ms } },
      { group: 'writes', name: `${name}: errors and non-2xx answers`, unit: 'count', target: { kind: 'max', value: 0 }, value: run.errors + run.non2xx },
    );
  }
  return figures;
};
