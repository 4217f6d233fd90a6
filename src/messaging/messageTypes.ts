import type { MessageKey } from '../providers/i18nProvider';

/** Spec §2: the six push-message types; `id` is the API's message_type / typeId. */
export interface MessageType {
  id: 1 | 2 | 3 | 4 | 5 | 6;
  /** URL segment under /messaging/ (spec spellings kept). */
  slug: string;
  /** Sidebar label, also the suffix of the page title 'Push Messaging - …'. */
  labelKey: MessageKey;
}

export const messageTypes: readonly MessageType[] = [
  { id: 1, slug: 'high-fives', labelKey: 'messaging.types.high_five' },
  { id: 2, slug: 'missed-class', labelKey: 'messaging.types.missed_class' },
  { id: 3, slug: 'notetoself', labelKey: 'messaging.types.notetoself' },
  { id: 4, slug: 'monday-morning', labelKey: 'messaging.types.monday_morning' },
  { id: 5, slug: 'cancelled-class', labelKey: 'messaging.types.cancelled_class' },
  { id: 6, slug: 'extended-absense', labelKey: 'messaging.types.extended_absense' },
];

export const messagingPath = (type: MessageType) => `/messaging/${type.slug}`;
