import { http, HttpResponse } from 'msw';
import type { AdminVideo, VimeoSync } from '@contract/videos';

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, unknown>;
  body?: unknown;
}

export const video = (id: number, title: string, extra: Partial<AdminVideo> = {}): AdminVideo => ({
  id,
  title,
  thumbnail_url: `https://img.test/${id}.jpg`,
  enabled: true,
  access_level_id: 1,
  vimeo_video_id: String(760000000 + id),
  duration: 600,
  category_id: 1,
  category: 'Yoga',
  instructor: 'Maya Lopez',
  tags: [],
  title_edited: false,
  deleted_at: null,
  vimeo_missing_since: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  plays_30d: 0,
  viewers_30d: 0,
  favorites: 0,
  last_played_at: null,
  ...extra,
});

/**
 * A stand-in for our /api/admin/v1 video endpoints (ra-data-simple-rest dialect), holding the
 * videos in memory and recording every call, so console tests see what is sent.
 */
export function videoBackend(initial: AdminVideo[], options: { syncs?: () => VimeoSync[] } = {}) {
  const videos = new Map(initial.map((v) => [v.id, { ...v }]));
  const calls: RecordedCall[] = [];
  const record = async (request: Request, body = false) => {
    const url = new URL(request.url);
    const query = Object.fromEntries([...url.searchParams].map(([key, value]) => [key, JSON.parse(value)]));
    const call: RecordedCall = { method: request.method, path: url.pathname, query, body: body ? await request.clone().json() : undefined };
    calls.push(call);
    return call;
  };
  let failNextSave: { status: number; body: object } | undefined;

  const handlers = [
    http.get('*/api/admin/v1/videos', async ({ request }) => {
      const { query } = await record(request);
      const filter = (query.filter ?? {}) as { q?: string; deleted?: boolean };
      const [start, end] = (query.range as [number, number] | undefined) ?? [0, 24];
      const rows = [...videos.values()]
        .filter((v) => (filter.deleted ? v.deleted_at !== null : v.deleted_at === null))
        .filter((v) => !filter.q || v.title.toLowerCase().includes(filter.q.toLowerCase()));
      const page = rows.slice(start, end + 1);
      return HttpResponse.json(page, { headers: { 'Content-Range': `videos ${start}-${start + page.length - 1}/${rows.length}` } });
    }),
    http.get('*/api/admin/v1/videos/:id', async ({ request, params }) => {
      await record(request);
      const found = videos.get(Number(params.id));
      return found ? HttpResponse.json(found) : HttpResponse.json({ message: 'No video' }, { status: 404 });
    }),
    http.put('*/api/admin/v1/videos/:id', async ({ request, params }) => {
      const { body } = await record(request, true);
      if (failNextSave) {
        const failure = failNextSave;
        failNextSave = undefined;
        return HttpResponse.json(failure.body, { status: failure.status });
      }
      const current = videos.get(Number(params.id))!;
      const changes = body as Partial<AdminVideo>;
      const next = { ...current, ...changes, deleted_at: changes.deleted_at === null ? null : current.deleted_at };
      videos.set(current.id, next);
      return HttpResponse.json(next);
    }),
    http.delete('*/api/admin/v1/videos/:id', async ({ request, params }) => {
      await record(request);
      const current = videos.get(Number(params.id))!;
      const next = { ...current, deleted_at: '2026-11-22T12:00:00.000Z' };
      videos.set(current.id, next);
      return HttpResponse.json(next);
    }),
    http.get('*/api/admin/v1/video-categories', () =>
      HttpResponse.json(
        [
          { id: 1, name: 'Yoga' },
          { id: 2, name: 'HIIT' },
        ],
        { headers: { 'Content-Range': 'video-categories 0-1/2' } },
      ),
    ),
    http.get('*/api/admin/v1/vimeo-syncs', ({ request }) => {
      const state = (JSON.parse(new URL(request.url).searchParams.get('filter') ?? '{}') as { state?: string }).state;
      const syncs = (options.syncs?.() ?? []).filter((s) => !state || s.state === state).slice(0, 1);
      return HttpResponse.json(syncs, { headers: { 'Content-Range': `vimeo-syncs 0-${syncs.length - 1}/${syncs.length}` } });
    }),
  ];

  return {
    handlers,
    calls,
    videos,
    saves: () => calls.filter((c) => c.method === 'PUT'),
    failNextSave: (status: number, body: object) => {
      failNextSave = { status, body };
    },
  };
}

export const sync = (extra: Partial<VimeoSync>): VimeoSync => ({
  id: 1,
  state: 'done',
  source: 'sandbox',
  requested_by: 'admin@localhost',
  pages_done: 4,
  pages_total: 4,
  videos_seen: 151,
  videos_added: 6,
  videos_updated: 9,
  videos_missing: 5,
  error: null,
  created_at: '2026-11-22T11:59:00.000Z',
  started_at: '2026-11-22T11:59:01.000Z',
  finished_at: '2026-11-22T12:00:00.000Z',
  ...extra,
});
