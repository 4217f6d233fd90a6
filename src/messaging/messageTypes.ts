import { MESSAGE_TYPES, type MessageTypeDefinition } from '@contract/messageTypes';
import type { MessageKey } from '../providers/i18nProvider';

/** A message type of contract/messageTypes.ts with its label (messaging.types.<key> in src/i18n/en.ts). */
export interface MessageType {
  id: MessageTypeDefinition['id'];
  /** URL segment under /messaging/ (spec spellings kept). */
  slug: MessageTypeDefinition['slug'];
  /** Sidebar label, also the suffix of the page title 'Push Messaging - …'. */
  labelKey: MessageKey;
}

export const messageTypes: readonly MessageType[] = MESSAGE_TYPES.map((type) => ({
  id: type.id,
  slug: type.slug,
  labelKey: `messaging.types.${type.key}` satisfies MessageKey,
}));

export const messagingPath = (type: Pick<MessageType, 'slug'>) => `/messaging/${type.slug}`;
