/**
 * The six push-message types, defined once for the server, the console and the database's
 * `message_types` rows (migration 0001 seeds them; tests/server/message-types.test.ts holds the two
 * together). No zod here: the console imports this eagerly.
 *
 * - `id`: the API's message_type / typeId, and message_types.id.
 * - `slug`: the console's route (/messaging/<slug>), message_types.slug, and the `source` of an
 *   automated push in the pushes table.
 * - `title`: message_types.title, which the API answers as msg_type_title.
 * - `key`: the console's label, `messaging.types.<key>` in src/i18n/en.ts (sidebar entry and page title).
 * - `trigger`: 'weekly' types go to every eligible client at one weekly moment (weekday and time);
 *   'event' types follow one client's own event (a class, a no-show, a late cancellation, an absence).
 */
export const MESSAGE_TYPES = [
  { id: 1, slug: 'high-fives', title: 'High Five', key: 'high_five', trigger: 'event' },
  { id: 2, slug: 'missed-class', title: 'Missed Class', key: 'missed_class', trigger: 'event' },
  { id: 3, slug: 'notetoself', title: '#notetoself', key: 'notetoself', trigger: 'weekly' },
  { id: 4, slug: 'monday-morning', title: 'Monday Morning', key: 'monday_morning', trigger: 'weekly' },
  { id: 5, slug: 'cancelled-class', title: 'Cancelled Class', key: 'cancelled_class', trigger: 'event' },
  { id: 6, slug: 'extended-absense', title: 'Extended Absense', key: 'extended_absense', trigger: 'event' },
] as const;

export type MessageTypeDefinition = (typeof MESSAGE_TYPES)[number];
export type MessageTypeNumber = MessageTypeDefinition['id'];

export const MESSAGE_TYPE_IDS: readonly MessageTypeNumber[] = MESSAGE_TYPES.map((type) => type.id);

export const messageTypeById = (id: number): MessageTypeDefinition | undefined => MESSAGE_TYPES.find((type) => type.id === id);

/** Whether a type is sent at a weekly moment rather than after each client's own event. */
export const isWeeklyType = (id: number): boolean => messageTypeById(id)?.trigger === 'weekly';
