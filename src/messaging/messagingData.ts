import type { AddMessageRequest, AddMessageResponse, MessagesResponse, PushMessage } from '@contract/messaging';

import type { DataModule } from '../providers/dataModule';
import { hasStatus, type HttpClient } from '../providers/http';
import type { MessageRow } from './messageEdits';
import { loadChunk } from '../common/chunks';

// The answers are checked against the contract's zod schemas, loaded on the first messaging call
// so the schema library stays out of the console's first download.
const schemas = () => loadChunk(() => import('@contract/messaging'));

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type MessagingMethods = {
  /** GET /api/client/v1/messaging/{typeId} */
  getPushMessages: (typeId: number) => Promise<MessagesResponse>;
  /** POST /api/client/v1/messaging/update with one changed row as the page holds it; answers the stored message. */
  updatePushMessage: (row: MessageRow) => Promise<PushMessage>;
  /** POST /api/client/v1/messaging/add-new; a refusal resolves with status 'error' (the page reads status). */
  addPushMessage: (body: AddMessageRequest) => Promise<AddMessageResponse>;
};

const post = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body) });

export const messagingData = (http: HttpClient) =>
  ({
    methods: {
      getPushMessages: async (typeId) => (await schemas()).MessagesResponse.parse((await http(`/api/client/v1/messaging/${typeId}`)).json),
      updatePushMessage: async (row) => (await schemas()).PushMessage.parse((await http('/api/client/v1/messaging/update', post(row))).json),
      addPushMessage: async (body) => {
        try {
          return (await schemas()).AddMessageResponse.parse((await http('/api/client/v1/messaging/add-new', post(body))).json);
        } catch (error) {
          const refusal = (await schemas()).AddMessageResponse.safeParse((error as { body?: unknown }).body);
          // A 401 must still reach authProvider.checkError (session expired → login page).
          if (hasStatus(error) && error.status !== 401 && refusal.success) return refusal.data;
          throw error;
        }
      },
    },
  }) satisfies DataModule<MessagingMethods>;
