import type { ClientGlance } from '@contract/glance';
import type { Note, TagSuggestionsResponse, TagsResponse } from '@contract/notes';
import type { TimelineKind, TimelineResponse } from '@contract/timeline';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

/** The client's profile beyond the spec's sections: at a glance, the timeline, notes and tags. */
export type ClientProfileMethods = {
  /** The client at a glance (the header above the sections). */
  getClientGlance: (clientId: number) => Promise<ClientGlance>;
  getClientNotes: (clientId: number) => Promise<Note[]>;
  addClientNote: (clientId: number, body: string) => Promise<Note>;
  /** Only the author may (the server answers 403 to anyone else). */
  updateClientNote: (noteId: number, body: string) => Promise<Note>;
  deleteClientNote: (noteId: number) => Promise<{ id: number }>;
  getClientTags: (clientId: number) => Promise<string[]>;
  /** Replaces the client's tags; answers them as stored (normalized, sorted). */
  setClientTags: (clientId: number, tags: string[]) => Promise<string[]>;
  /** Tags in use starting with `q`, the most used first. */
  getTagSuggestions: (q: string) => Promise<TagSuggestionsResponse['tags']>;
  /** One page of the client's timeline, newest first; pass the previous page's `next` as `before`. */
  getClientTimeline: (clientId: number, options: { kinds?: readonly TimelineKind[]; before?: string | null }) => Promise<TimelineResponse>;
};

const admin = (clientId: number, rest: string) => `/api/admin/v1/clients/${encodeURIComponent(clientId)}/${rest}`;

export const clientProfileData = (http: HttpClient) => {
  const json = async <T>(path: string, options?: Parameters<HttpClient>[1]) => (await http(path, options)).json as T;
  return {
    methods: {
      getClientGlance: (clientId) => json<ClientGlance>(admin(clientId, 'glance')),
      getClientNotes: async (clientId) => (await json<{ notes: Note[] }>(admin(clientId, 'notes'))).notes,
      addClientNote: (clientId, body) => json<Note>(admin(clientId, 'notes'), { method: 'POST', body: JSON.stringify({ body }) }),
      updateClientNote: (noteId, body) => json<Note>(`/api/admin/v1/notes/${encodeURIComponent(noteId)}`, { method: 'PUT', body: JSON.stringify({ body }) }),
      deleteClientNote: (noteId) => json<{ id: number }>(`/api/admin/v1/notes/${encodeURIComponent(noteId)}`, { method: 'DELETE' }),
      getClientTags: async (clientId) => (await json<TagsResponse>(admin(clientId, 'tags'))).tags,
      setClientTags: async (clientId, tags) => (await json<TagsResponse>(admin(clientId, 'tags'), { method: 'PUT', body: JSON.stringify({ tags }) })).tags,
      getTagSuggestions: async (q) => (await json<TagSuggestionsResponse>(`/api/admin/v1/tags${q ? `?q=${encodeURIComponent(q)}` : ''}`)).tags,
      getClientTimeline: (clientId, { kinds, before }) => {
        const query = new URLSearchParams();
        if (kinds?.length) query.set('kinds', kinds.join(','));
        if (before) query.set('before', before);
        const search = query.toString();
        return json<TimelineResponse>(admin(clientId, `timeline${search ? `?${search}` : ''}`));
      },
    },
  } satisfies DataModule<ClientProfileMethods>;
};
