// Segments, broadcasts and bulk actions, and the client activity segments filter on (migrations 0055-0057, 0060-0061).
import { bigint, bigserial, boolean, date, integer, jsonb, pgTable, primaryKey, serial, smallint, text } from 'drizzle-orm/pg-core';
import { id64, tz } from './schemaColumns';

export const segments = pgTable('segments', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  filter: jsonb('filter').$type<Record<string, unknown>>().notNull(),
  created_by: text('created_by'),
  created_at: tz('created_at').notNull().defaultNow(),
  updated_at: tz('updated_at').notNull().defaultNow(),
});

export const broadcasts = pgTable('broadcasts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  kind: text('kind').$type<'broadcast' | 'bulk_push'>().notNull().default('broadcast'),
  title: text('title').notNull(),
  body: text('body').notNull(),
  filter: jsonb('filter').$type<Record<string, unknown>>(),
  segment_id: integer('segment_id'),
  status: text('status').$type<'draft' | 'scheduled' | 'sending' | 'sent' | 'cancelled'>().notNull(),
  send_at: tz('send_at'),
  recipients: integer('recipients').notNull().default(0),
  staff_user_id: integer('staff_user_id'),
  created_by: text('created_by'),
  created_at: tz('created_at').notNull().defaultNow(),
  started_at: tz('started_at'),
  finished_at: tz('finished_at'),
  idempotency_key: text('idempotency_key'),
  request_digest: text('request_digest'),
  max_per_minute: integer('max_per_minute'),
  fixing_after: bigint('fixing_after', { mode: 'number' }),
  goal: text('goal').$type<'class' | 'stream' | 'purchase' | 'any'>().notNull().default('any'),
  goal_window_days: integer('goal_window_days').notNull().default(7),
  holdout_percent: integer('holdout_percent').notNull().default(0),
  held_out: integer('held_out').notNull().default(0),
  // versions of the text and the winner (migration 0105)
  variants: jsonb('variants').$type<{ title: string; body: string }[]>(),
  test_percent: integer('test_percent'),
  pick_winner_after_hours: integer('pick_winner_after_hours'),
  winner_metric: text('winner_metric').$type<'conversion' | 'open'>(),
  winner_variant: smallint('winner_variant'),
  winner_reason: text('winner_reason').$type<'better' | 'no_clear_winner' | 'no_data'>(),
  winner_figures: jsonb('winner_figures').$type<{ clients: number; hits: number }[]>(),
  winner_picked_at: tz('winner_picked_at'),
});

/** One row per client a message was meant for, held-out ones included (migration 0090; kept by its triggers). */
export const messageOutcomes = pgTable('message_outcomes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  broadcast_id: id64('broadcast_id'),
  message_type: integer('message_type'),
  automated_push_id: id64('automated_push_id'),
  week: date('week', { mode: 'string' }),
  client_id: id64('client_id').notNull(),
  held_out: boolean('held_out').notNull().default(false),
  variant: smallint('variant'),
  goal: text('goal').$type<'class' | 'stream' | 'purchase' | 'any'>().notNull(),
  window_days: integer('window_days').notNull(),
  sent_at: tz('sent_at').notNull(),
  push_id: id64('push_id'),
  push_status: text('push_status'),
  opened_at: tz('opened_at'),
  converted_at: tz('converted_at'),
});

export const broadcastRecipients = pgTable(
  'broadcast_recipients',
  {
    broadcast_id: id64('broadcast_id').notNull(),
    client_id: id64('client_id').notNull(),
    status: text('status').$type<'pending' | 'sending' | 'sent' | 'retrying' | 'waiting' | 'failed' | 'skipped'>().notNull().default('pending'),
    skip_reason: text('skip_reason'),
    push_id: id64('push_id'),
    failure: text('failure'),
    attempts: integer('attempts').notNull().default(0),
    retry_at: tz('retry_at'),
    variant: smallint('variant'),
  },
  (table) => [primaryKey({ columns: [table.broadcast_id, table.client_id] })],
);

export const bulkActions = pgTable('bulk_actions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  kind: text('kind').$type<'override'>().notNull(),
  params: jsonb('params').$type<Record<string, unknown>>().notNull(),
  filter: jsonb('filter').$type<Record<string, unknown>>(),
  status: text('status').$type<'running' | 'done'>().notNull(),
  total: integer('total').notNull().default(0),
  staff_user_id: integer('staff_user_id'),
  staff_email: text('staff_email'),
  ip: text('ip'),
  created_at: tz('created_at').notNull().defaultNow(),
  finished_at: tz('finished_at'),
  idempotency_key: text('idempotency_key'),
  request_digest: text('request_digest'),
});

export const bulkActionTargets = pgTable(
  'bulk_action_targets',
  {
    bulk_action_id: id64('bulk_action_id').notNull(),
    client_id: id64('client_id').notNull(),
    status: text('status').$type<'pending' | 'done' | 'failed'>().notNull().default('pending'),
    error: text('error'),
  },
  (table) => [primaryKey({ columns: [table.bulk_action_id, table.client_id] })],
);

/** derived (migration 0058): each client's last signed-in class and stream, kept by triggers. */
export const clientActivity = pgTable('client_activity', {
  client_id: id64('client_id').primaryKey(),
  last_class_at: tz('last_class_at'),
  last_stream_at: tz('last_stream_at'),
  /** The at-risk list's order as of client_activity_ranking.ranked_at (migration 0059); NULL until ranked. */
  value_rank: bigint('value_rank', { mode: 'number' }),
});

/** derived (migration 0059): the moment client_activity.value_rank is as of. */
export const clientActivityRanking = pgTable('client_activity_ranking', {
  id: boolean('id').primaryKey().default(true),
  ranked_at: tz('ranked_at').notNull(),
});
