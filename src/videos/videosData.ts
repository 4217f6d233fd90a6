import simpleRestProvider from 'ra-data-simple-rest';
import { HttpError, type DataProvider } from 'react-admin';
import type { StartVimeoSyncResponse, VideosResponse, VimeoSync } from '@contract/videos';
import type { DataModule } from '../providers/dataModule';
import { hasStatus, type HttpClient } from '../providers/http';
import { pageSpecVideos } from './specVideoPage';

export interface SyncResult {
  ok: boolean;
  /** A sync was already queued or running, so this click joined it (our extension of the spec). */
  alreadyRunning: boolean;
  sync?: VimeoSync;
  /** Vimeo is known to be down (503 from its circuit breaker): the server's "retry in N s" text. */
  unavailable?: string;
}

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type VideosMethods = {
  /** Starts the server-side Vimeo import; the spec only checks the answer's ok status. */
  syncVimeoVideos: () => Promise<SyncResult>;
};

/**
 * The server answers a bad save with `errors: [{ path: 'body.title', message }]`; react-admin
 * shows server-side errors next to the form's inputs when they come as `{ errors: { title } }`.
 */
export const toFormErrors = (error: unknown): unknown => {
  if (!(error instanceof HttpError) || error.status !== 400) return error;
  const list = (error.body as { errors?: { path: string; message: string }[] } | undefined)?.errors ?? [];
  const errors = Object.fromEntries(list.map(({ path, message }) => [path.replace(/^body\./, ''), message]));
  return new HttpError(error.message, error.status, { ...(error.body as object), errors });
};

export const videosData = (http: HttpClient) => {
  // Our /api/admin/v1 extensions speak ra-data-simple-rest's dialect (contract/raSimpleRest.ts).
  const admin: DataProvider = simpleRestProvider('/api/admin/v1', (url, options) => http(url, options));
  const { getList, getOne, getMany, update, delete: remove } = admin;
  return {
    resources: {
      videos: {
        // In front of a backend that has only the spec's calls (no extension: 404), the list reads
        // the spec's GET /api/client/v1/videos and pages it here.
        getList: ((resource, params) =>
          getList(resource, params).catch(async (error) => {
            if (!hasStatus(error) || error.status !== 404) throw error;
            const { json } = await http('/api/client/v1/videos');
            return pageSpecVideos((json as VideosResponse).videos, params);
          })) as DataProvider['getList'],
        getOne,
        getMany,
        update: (resource, params) => update(resource, params).catch((error) => Promise.reject(toFormErrors(error))),
        delete: remove,
      },
      'video-categories': {
        getList,
        getMany: (resource) => getList(resource, { pagination: { page: 1, perPage: 500 }, sort: { field: 'id', order: 'ASC' }, filter: {} }),
      },
      'vimeo-syncs': { getList, getOne },
    },
    methods: {
      syncVimeoVideos: async () => {
        try {
          const { json } = await http('/api/v1/sync/all-vimeo-videos');
          const answer = json as Partial<StartVimeoSyncResponse> | null;
          return { ok: true, alreadyRunning: answer?.already_running === true, sync: answer?.sync };
        } catch (error) {
          // A 401 must still reach authProvider.checkError (session expired → login page).
          if (hasStatus(error) && error.status === 503) {
            const message = (error as { body?: { message?: unknown } }).body?.message;
            return { ok: false, alreadyRunning: false, unavailable: typeof message === 'string' ? message : undefined };
          }
          if (hasStatus(error) && error.status !== 401) return { ok: false, alreadyRunning: false };
          throw error;
        }
      },
    },
  } satisfies DataModule<VideosMethods>;
};
