import { bigserial, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { id64, tz } from './schemaColumns';

/** Staff notes about a client and the client's tags (migration 0052). */
export const clientNotes = pgTable('client_notes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  client_id: id64('client_id').notNull(),
  body: text('body').notNull(),
  author_staff_id: integer('author_staff_id'),
  author_email: text('author_email').notNull(),
  created_at: tz('created_at').notNull(),
  updated_at: tz('updated_at').notNull(),
});

export const clientTags = pgTable(
  'client_tags',
  {
    client_id: id64('client_id').notNull(),
    tag: text('tag').notNull(),
  },
  (table) => [primaryKey({ columns: [table.client_id, table.tag] })],
);

/** What staff did about a client at risk (migration 0070): a call, a text, a message left, a snooze. */
export const clientContacts = pgTable('client_contacts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  client_id: id64('client_id').notNull(),
  kind: text('kind').notNull(),
  note: text('note'),
  snoozed_until: tz('snoozed_until'),
  staff_email: text('staff_email').notNull(),
  created_at: tz('created_at').notNull(),
});
