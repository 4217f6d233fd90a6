// Tables of the later features (migrations 0008, 0012, 0015-0020): dashboard aggregates, automated messages, pushes,
// the audit log and the search tables.
import { bigint, bigserial, boolean, date, integer, jsonb, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { tz, id64 } from './schemaColumns';

// Dashboard aggregates (0008_dashboard_stats.sql), maintained by triggers; the server only reads them.
export const videoPlaysDaily = pgTable(
  'video_plays_daily',
  {
    video_id: integer('video_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    category_id: integer('category_id').notNull(),
    plays: integer('plays').notNull(),
  },
  (table) => [primaryKey({ columns: [table.video_id, table.day] })],
);

/** category_id 0: videos without a category. */
export const categoryPlaysDaily = pgTable(
  'category_plays_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    category_id: integer('category_id').notNull(),
    plays: integer('plays').notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.category_id] })],
);

export const clientPaidSpans = pgTable(
  'client_paid_spans',
  {
    client_id: id64('client_id').notNull(),
    starts_at: tz('starts_at').notNull(),
    ends_at: tz('ends_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.client_id, table.starts_at] })],
);

export const paidSpanDays = pgTable('paid_span_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  starts: integer('starts').notNull(),
  ends: integer('ends').notNull(),
});

// 0020_automated_messages.sql
export const automationSettings = pgTable('automation_settings', {
  message_type: integer('message_type').primaryKey(),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
  updated_at: tz('updated_at').notNull(),
  updated_by: text('updated_by'),
});

export const automatedPushes = pgTable('automated_pushes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  message_type: integer('message_type').notNull(),
  client_id: id64('client_id').notNull(),
  event_key: text('event_key').notNull(),
  context: jsonb('context').$type<Record<string, unknown>>().notNull(),
  status: text('status').$type<'pending' | 'sending' | 'sent' | 'skipped' | 'failed'>().notNull(),
  skip_reason: text('skip_reason'),
  planned_for: tz('planned_for').notNull(),
  due_at: tz('due_at').notNull(),
  deferred: boolean('deferred').notNull(),
  push_message_id: integer('push_message_id'),
  push_id: id64('push_id'),
  title: text('title'),
  body: text('body'),
  attempts: integer('attempts').notNull(),
  last_error: text('last_error'),
  local_day: date('local_day'),
  created_at: tz('created_at').notNull(),
  finished_at: tz('finished_at'),
});

// 0024_automation_plan_marks.sql
export const automationPlanMarks = pgTable('automation_plan_marks', {
  message_type: integer('message_type').primaryKey(),
  planned_through: tz('planned_through').notNull(),
});

export const automatedPushDays = pgTable(
  'automated_push_days',
  {
    client_id: id64('client_id').notNull(),
    local_day: date('local_day').notNull(),
    sent: integer('sent').notNull(),
  },
  (table) => [primaryKey({ columns: [table.client_id, table.local_day] })],
);
export const pushes = pgTable('pushes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  client_id: id64('client_id'),
  sent_by: text('sent_by').notNull(),
  staff_user_id: integer('staff_user_id'),
  source: text('source').notNull(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  data: jsonb('data').$type<Record<string, string>>(),
  status: text('status').$type<'sending' | 'sent' | 'failed' | 'no_token'>().notNull(),
  reason: text('reason'),
  results: jsonb('results').$type<unknown[]>().notNull(),
  idempotency_key: text('idempotency_key'),
  created_at: tz('created_at').notNull().defaultNow(),
  finished_at: tz('finished_at'),
  /** When the app reported the push opened (migration 0090). */
  opened_at: tz('opened_at'),
});

export const deadPushTokens = pgTable('dead_push_tokens', {
  token: text('token').primaryKey(),
  code: text('code').notNull(),
  marked_at: tz('marked_at').notNull().defaultNow(),
});

/** Staff actions with before/after values (migration 0017); written by server/src/audit/record.ts. */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: tz('at').notNull().defaultNow(),
  staff_user_id: integer('staff_user_id'),
  staff_email: text('staff_email'),
  action: text('action').notNull(),
  target_type: text('target_type').notNull(),
  target_id: text('target_id'),
  client_id: id64('client_id'),
  before: jsonb('before').$type<Record<string, unknown> | null>(),
  after: jsonb('after').$type<Record<string, unknown> | null>(),
  ip: text('ip'),
});

// Customer search (migrations 0015, 0016, 0026): token tables the clients triggers keep current, and the
// queue of changes pushed to hosted Algolia when ALGOLIA_* are set.
export const searchWords = pgTable('search_words', {
  word: text('word').notNull(),
  field: smallint('field').notNull(),
  sort_key: text('sort_key').notNull(),
  client_id: id64('client_id').notNull(),
  /** Bits of the client's word prefixes (migration 0026), for several-word queries. */
  sig: bigint('sig', { mode: 'bigint' }).notNull(),
});

export const searchPrefixes = pgTable('search_prefixes', {
  prefix: text('prefix').notNull(),
  field: smallint('field').notNull(),
  sort_key: text('sort_key').notNull(),
  client_id: id64('client_id').notNull(),
  sig: bigint('sig', { mode: 'bigint' }).notNull(),
});

export const searchVocab = pgTable('search_vocab', {
  word: text('word').primaryKey(),
});

export const searchOutbox = pgTable('search_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  index_name: text('index_name').notNull(),
  object_id: id64('object_id').notNull(),
  queued_at: tz('queued_at').notNull().defaultNow(),
});

/** A version per table that triggers bump once per changing transaction (migration 0025): the videos list's ETag. */
export const tableVersions = pgTable('table_versions', {
  name: text('name').primaryKey(),
  version: id64('version').notNull(),
});

/** Per-video figures the videos.figures job recomputes (migration 0053). */
export const videoFigures = pgTable('video_figures', {
  video_id: integer('video_id').primaryKey(),
  plays_30d: integer('plays_30d').notNull(),
  viewers_30d: integer('viewers_30d').notNull(),
  favorites: integer('favorites').notNull(),
  last_played_at: tz('last_played_at'),
  refreshed_at: tz('refreshed_at').notNull(),
});
