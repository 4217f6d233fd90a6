import { http, HttpResponse } from 'msw';
import type { Client } from '@contract/clients';
import type { RunningOverride } from '@contract/overrides';
import type { Note } from '@contract/notes';
import { fakeAutomationServer } from './automationMsw';
import { signedIn } from './msw';

export const LEVELS = [
  { name: 'VOD | FREE', sort_order: 1 },
  { name: 'VOD | BASIC', sort_order: 2 },
  { name: 'VOD | PREMIUM', sort_order: 3 },
];

export interface ClientProfileCalls {
  grants: Record<string, unknown>[];
  ends: number[];
  overrideQueries: URLSearchParams[];
  notes: { method: string; id?: number; body?: unknown }[];
  tags: string[][];
}

/**
 * The client page with every section answering empty, plus the profile and override calls: grants, ending an
 * override, the Overrides list. The client record follows the grants and ends.
 */
export function fakeClientProfileServer(options: { client: Client; overrides?: RunningOverride[]; notes?: Note[]; tags?: string[]; suggestions?: string[] }) {
  const calls: ClientProfileCalls = { grants: [], ends: [], overrideQueries: [], notes: [], tags: [] };
  let client = options.client;
  let notes = options.notes ?? [];
  let tags = options.tags ?? [];
  let nextNoteId = 100;
  const handlers = [
    signedIn(),
    ...fakeAutomationServer().handlers,
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/contracts', () => HttpResponse.json({ errors: [], contracts: [] })),
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/purchases', () => HttpResponse.json({ errors: [], purchases: [] })),
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/:email/debug', () => HttpResponse.json({ debugInfo: [] })),
    http.get('*/api/client/v1/client-details/:id', ({ params }) =>
      String(params.id) === String(client._id) ? HttpResponse.json({ client: [client] }) : HttpResponse.json({ message: 'No client' }, { status: 404 }),
    ),
    http.post('*/api/client/v1/client-details/recently-viewed-videos', () => HttpResponse.json({ videos: [] })),
    http.post('*/api/client/v1/client-details/favorites-videos', () => HttpResponse.json({ videos: [] })),
    http.get('*/api/admin/v1/pushes', () => HttpResponse.json([], { headers: { 'content-range': 'pushes */0' } })),
    http.get('*/api/admin/v1/audit', () => HttpResponse.json([], { headers: { 'content-range': 'audit */0' } })),
    http.get('*/api/client/v1/vod-access-levels', () => HttpResponse.json({ levels: LEVELS, override_max_days: 365 })),
    http.post('*/api/client/v1/client-details/update-access-level', async ({ request }) => {
      const body = (await request.json()) as { new_vod_access_level: number; adminOverrideDate: string };
      calls.grants.push(body);
      const level = LEVELS.find((candidate) => candidate.sort_order === body.new_vod_access_level)!;
      client = { ...client, vod_access_level: level.sort_order, name: level.name, admin_updated_expiration: body.adminOverrideDate };
      return HttpResponse.json({ errors: [], client });
    }),
    http.delete('*/api/admin/v1/clients/:id/override', ({ params }) => {
      calls.ends.push(Number(params.id));
      client = { ...client, vod_access_level: 2, name: 'VOD | BASIC', admin_updated_expiration: null };
      return HttpResponse.json({ client });
    }),
    http.get('*/api/admin/v1/clients/:id/notes', () => HttpResponse.json({ notes })),
    http.post('*/api/admin/v1/clients/:id/notes', async ({ request }) => {
      const { body } = (await request.json()) as { body: string };
      calls.notes.push({ method: 'POST', body });
      const at = new Date().toISOString();
      const note: Note = { id: nextNoteId++, client_id: client._id, body, author_email: 'admin@localhost', created_at: at, updated_at: at, mine: true };
      notes = [note, ...notes];
      return HttpResponse.json(note);
    }),
    http.put('*/api/admin/v1/notes/:id', async ({ request, params }) => {
      const { body } = (await request.json()) as { body: string };
      calls.notes.push({ method: 'PUT', id: Number(params.id), body });
      notes = notes.map((note) => (note.id === Number(params.id) ? { ...note, body, updated_at: new Date(Date.now() + 60_000).toISOString() } : note));
      return HttpResponse.json(notes.find((note) => note.id === Number(params.id)));
    }),
    http.delete('*/api/admin/v1/notes/:id', ({ params }) => {
      calls.notes.push({ method: 'DELETE', id: Number(params.id) });
      notes = notes.filter((note) => note.id !== Number(params.id));
      return HttpResponse.json({ id: Number(params.id) });
    }),
    http.get('*/api/admin/v1/clients/:id/tags', () => HttpResponse.json({ tags })),
    http.put('*/api/admin/v1/clients/:id/tags', async ({ request }) => {
      tags = [...((await request.json()) as { tags: string[] }).tags].sort();
      calls.tags.push(tags);
      return HttpResponse.json({ tags });
    }),
    http.get('*/api/admin/v1/tags', ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      return HttpResponse.json({ tags: (options.suggestions ?? []).filter((tag) => tag.startsWith(q)).map((tag) => ({ tag, clients: 3 })) });
    }),
    http.get('*/api/admin/v1/overrides', ({ request }) => {
      const query = new URL(request.url).searchParams;
      calls.overrideQueries.push(query);
      const within = (JSON.parse(query.get('filter') ?? '{}') as { ending_within_days?: number }).ending_within_days;
      const soon = Date.now() + (within ?? 0) * 86_400_000;
      const rows = (options.overrides ?? []).filter((row) => within === undefined || Date.parse(row.ends_at) <= soon);
      return HttpResponse.json(rows, { headers: { 'content-range': rows.length ? `overrides 0-${rows.length - 1}/${rows.length}` : 'overrides */0' } });
    }),
  ];
  return { handlers, calls };
}
