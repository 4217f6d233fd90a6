import { bigserial, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { id64, tz } from './schemaColumns';

/** Client 360 (issue 24, migration 0052): staff notes about a client and the client's tags. */
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

/** Issue 24 point 6 (migration 0053): per-video figures the videos.figures job recomputes. */
export const videoFigures = pgTable('video_figures', {
  video_id: integer('video_id').primaryKey(),
  plays_30d: integer('plays_30d').notNull(),
  viewers_30d: integer('viewers_30d').notNull(),
  favorites: integer('favorites').notNull(),
  last_played_at: tz('last_played_at'),
  refreshed_at: tz('refreshed_at').notNull(),
});
