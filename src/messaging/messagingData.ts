import {
  AddMessageResponse,
  MessagesResponse,
  PushMessage,
  type AddMessageRequest,
} from '../../contract/messaging';
import type { DataModule } from '../providers/dataModule';
import { hasStatus, type HttpClient } from '../providers/http';
import type { MessageRow } from './messageEdits';

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type MessagingMethods = {
  /** GET /api/client/v1/messaging/{typeId} */
  getPushMessages: (typeId: number) => Promise<MessagesResponse>;
  /** POST /api/client/v1/messaging/update with one changed row as the page holds it; answers the stored message. */
  updatePushMessage: (row: MessageRow) => Promise<PushMessage>;
  /** POST /api/client/v1/messaging/add-new; a refusal resolves with status 'error' (the page reads status, spec §8). */
  addPushMessage: (body: AddMessageRequest) => Promise<AddMessageResponse>;
};

const post = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body) });

export const messagingData = (http: HttpClient) =>
  ({
    methods: {
      getPushMessages: async (typeId) => MessagesResponse.parse((await http(`/api/client/v1/messaging/${typeId}`)).json),
      updatePushMessage: async (row) => PushMessage.parse((await http('/api/client/v1/messaging/update', post(row))).json),
      addPushMessage: async (body) => {
        try {
          return AddMessageResponse.parse((await http('/api/client/v1/messaging/add-new', post(body))).json);
        } catch (error) {
          const refusal = AddMessageResponse.safeParse((error as { body?: unknown }).body);
          // A 401 must still reach authProvider.checkError (session expired → login page).
          if (hasStatus(error) && error.status !== 401 && refusal.success) return refusal.data;
          throw error;
        }
      },
    },
  }) satisfies DataModule<MessagingMethods>;
