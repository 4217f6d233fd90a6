// A client's data rights (migration 0085): erasures and their tombstones, access and erasure requests,
// who looked at whose data.
import { bigserial, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { id64, tz } from './schemaColumns';

export const erasureTombstones = pgTable('erasure_tombstones', {
  hash: text('hash').primaryKey(),
  kind: text('kind').notNull(),
  erased_client_id: id64('erased_client_id').notNull(),
  created_at: tz('created_at').notNull(),
});

export const clientErasures = pgTable('client_erasures', {
  client_id: id64('client_id').primaryKey(),
  reason: text('reason').notNull(),
  staff_user_id: integer('staff_user_id'),
  staff_email: text('staff_email'),
  erased_at: tz('erased_at').notNull(),
});

export const erasureOutside = pgTable('erasure_outside', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  client_id: id64('client_id').notNull(),
  service: text('service').$type<'algolia' | 'revenuecat'>().notNull(),
  target: text('target').notNull(),
  state: text('state').$type<'pending' | 'done' | 'failed'>().notNull(),
  attempts: integer('attempts').notNull().default(0),
  last_error: text('last_error'),
  done_at: tz('done_at'),
});

export const dataRequests = pgTable('data_requests', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  kind: text('kind').$type<'access' | 'erasure'>().notNull(),
  client_id: id64('client_id').notNull(),
  received_at: tz('received_at').notNull(),
  due_at: tz('due_at').notNull(),
  note: text('note'),
  logged_by: text('logged_by'),
  handled_at: tz('handled_at'),
  handled_by: text('handled_by'),
});

export const clientLooks = pgTable(
  'client_looks',
  {
    staff_user_id: integer('staff_user_id').notNull(),
    client_id: id64('client_id').notNull(),
    hour: tz('hour').notNull(),
    staff_email: text('staff_email').notNull(),
    kind: text('kind').$type<'page' | 'export' | 'list_export'>().notNull(),
    first_at: tz('first_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.staff_user_id, table.client_id, table.hour] })],
);
