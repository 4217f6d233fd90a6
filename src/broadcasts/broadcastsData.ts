import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider } from 'react-admin';
import type { Broadcast, BroadcastCreated, BulkPushBody, CreateBroadcastBody, UpdateDraftBody } from '@contract/broadcasts';
import type { BulkAction, BulkOverrideBody } from '@contract/bulkActions';
import type { BroadcastOutcome } from '@contract/outcomes';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

export const BROADCASTS_RESOURCE = 'broadcasts';

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type BroadcastsMethods = {
  /** Sends (or schedules, or keeps as a draft) a push to a segment's or a filter's clients; one `idempotencyKey` per dialog. */
  createBroadcast: (body: CreateBroadcastBody, idempotencyKey?: string) => Promise<BroadcastCreated>;
  /** A draft's new title and message. */
  updateBroadcastDraft: (id: number, body: UpdateDraftBody) => Promise<Broadcast>;
  /** Sends a draft now, or schedules it for `sendAt`. */
  sendBroadcastDraft: (id: number, sendAt?: string) => Promise<BroadcastCreated>;
  cancelBroadcast: (id: number) => Promise<unknown>;
  /** A push to picked clients, or to every client of a list's filter, in the background; one `idempotencyKey` per dialog. */
  bulkPush: (body: BulkPushBody, idempotencyKey?: string) => Promise<BroadcastCreated>;
  getBroadcast: (id: number) => Promise<Broadcast>;
  /** An override for picked clients or a list's filter: granted at once up to 25, else in the background. */
  bulkOverride: (body: BulkOverrideBody, idempotencyKey?: string) => Promise<BulkAction>;
  getBulkOverride: (id: number) => Promise<BulkAction>;
  /** Did it work: sent, opened, converted against the holdout, and the lift. */
  getBroadcastOutcome: (id: number) => Promise<BroadcastOutcome>;
};

/** A POST; with an Idempotency-Key the server answers a repeated request with the first one's result. */
const post = (body: unknown, idempotencyKey?: string) => ({
  method: 'POST',
  body: JSON.stringify(body),
  ...(idempotencyKey ? { headers: new Headers({ 'Idempotency-Key': idempotencyKey }) } : {}),
});

/** Broadcasts (docs/automation.md#broadcasts): the history in ra-data-simple-rest's dialect, and the calls that send. */
export const broadcastsData = (http: HttpClient) => {
  const admin: DataProvider = simpleRestProvider('/api/admin/v1', (url, options) => http(url, options));
  const json = async <T>(path: string, body: unknown, idempotencyKey?: string) => (await http(path, post(body, idempotencyKey))).json as T;
  return {
    resources: { [BROADCASTS_RESOURCE]: { getList: admin.getList, getOne: admin.getOne } },
    methods: {
      createBroadcast: (body, key) => json<BroadcastCreated>('/api/admin/v1/broadcasts', body, key),
      updateBroadcastDraft: async (id, body) =>
        (await http(`/api/admin/v1/broadcasts/${encodeURIComponent(id)}`, { method: 'PUT', body: JSON.stringify(body) })).json as Broadcast,
      sendBroadcastDraft: (id, sendAt) => json<BroadcastCreated>(`/api/admin/v1/broadcasts/${encodeURIComponent(id)}/send`, sendAt ? { send_at: sendAt } : {}),
      cancelBroadcast: (id) => json<unknown>(`/api/admin/v1/broadcasts/${encodeURIComponent(id)}/cancel`, {}),
      bulkPush: (body, key) => json<BroadcastCreated>('/api/admin/v1/bulk/push', body, key),
      getBroadcast: async (id) => (await http(`/api/admin/v1/broadcasts/${encodeURIComponent(id)}`)).json as Broadcast,
      bulkOverride: (body, key) => json<BulkAction>('/api/admin/v1/bulk/override', body, key),
      getBulkOverride: async (id) => (await http(`/api/admin/v1/bulk/override/${encodeURIComponent(id)}`)).json as BulkAction,
      getBroadcastOutcome: async (id) => (await http(`/api/admin/v1/broadcasts/${encodeURIComponent(id)}/outcome`)).json as BroadcastOutcome,
    },
  } satisfies DataModule<BroadcastsMethods>;
};
