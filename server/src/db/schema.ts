// Typed view of the tables that server/migrations/*.sql create. The SQL files are the source of
// truth (both drivers run them); keep this file in step with them in the same commit.
import {
  bigint,
  bigserial,
  boolean,
  date,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const id64 = (name: string) => bigint(name, { mode: 'number' });

export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const accessLevels = pgTable('access_levels', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  sort_order: integer('sort_order').notNull(),
  is_paid: boolean('is_paid').notNull(),
});

export const clients = pgTable('clients', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  first_name: text('first_name'),
  last_name: text('last_name'),
  email_address: text('email_address'),
  mb_client_id: text('mb_client_id'),
  mb_site_id: integer('mb_site_id'),
  vod_access_level: integer('vod_access_level'),
  purchase_access_level: integer('purchase_access_level'),
  client_status: text('client_status'),
  first_login: tz('first_login'),
  admin_updated_expiration: tz('admin_updated_expiration'),
  admin_replaced_access_level: integer('admin_replaced_access_level'),
  revenue_cat_user_id: text('revenue_cat_user_id'),
  created_at: tz('created_at').notNull().defaultNow(),
  updated_at: tz('updated_at').notNull().defaultNow(),
  automated_messages_opt_out: boolean('automated_messages_opt_out').notNull().default(false),
});

/** One row per admin access-level override (migration 0023); the clients row keeps only the one in force. */
export const accessOverrideHistory = pgTable('access_override_history', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  client_id: id64('client_id').notNull(),
  level: integer('level').notNull(),
  replaced_level: integer('replaced_level'),
  starts_at: tz('starts_at').notNull(),
  ends_at: tz('ends_at').notNull(),
  ended_at: tz('ended_at'),
  granted_by: text('granted_by'),
});

export const videoCategories = pgTable('video_categories', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  sort_order: integer('sort_order').notNull(),
});

export const videos = pgTable('videos', {
  id: serial('id').primaryKey(),
  vimeo_video_id: text('vimeo_video_id'),
  title: text('title').notNull(),
  description: text('description'),
  thumbnail_url: text('thumbnail_url'),
  duration: integer('duration').notNull(),
  enabled: boolean('enabled').notNull(),
  access_level_id: integer('access_level_id').notNull(),
  category_id: integer('category_id'),
  instructor: text('instructor'),
  deleted_at: tz('deleted_at'),
  created_at: tz('created_at').notNull().defaultNow(),
  updated_at: tz('updated_at').notNull().defaultNow(),
  vimeo_tags: text('vimeo_tags').array().notNull(),
  title_edited: boolean('title_edited').notNull(),
  vimeo_missing_since: tz('vimeo_missing_since'),
});

export const videoViews = pgTable('video_views', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  client_id: id64('client_id').notNull(),
  video_id: integer('video_id').notNull(),
  viewed_at: tz('viewed_at').notNull().defaultNow(),
});

export const favorites = pgTable(
  'favorites',
  {
    client_id: id64('client_id').notNull(),
    video_id: integer('video_id').notNull(),
    video_category_id: integer('video_category_id').notNull(),
    created_at: tz('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.client_id, table.video_id] })],
);

export interface AutopayEvent {
  ChargeAmount: number;
  ScheduleDate: string;
}

export const contracts = pgTable('contracts', {
  pk: bigserial('pk', { mode: 'number' }).primaryKey(),
  client_id: id64('client_id').notNull(),
  id: id64('id').notNull(),
  contract_id: id64('contract_id'),
  site_id: integer('site_id'),
  agreement_date: tz('agreement_date'),
  autopay_status: text('autopay_status'),
  contract_name: text('contract_name'),
  start_date: tz('start_date'),
  end_date: tz('end_date'),
  termination_date: tz('termination_date'),
  original_location_id: integer('original_location_id'),
  upcoming_autopay_events: jsonb('upcoming_autopay_events').$type<AutopayEvent[]>().notNull(),
  synced_at: tz('synced_at').notNull().defaultNow(),
});

export const purchases = pgTable('purchases', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  client_id: id64('client_id'),
  revenue_cat_user_id: text('revenue_cat_user_id'),
  access_level_id: integer('access_level_id'),
  subscription_identifier: text('subscription_identifier'),
  upsell_source: text('upsell_source'),
  purchased_at: tz('purchased_at'),
  expires_at: tz('expires_at'),
  subscription_status: text('subscription_status'),
  created_at: tz('created_at').notNull().defaultNow(),
  rc_transaction_id: text('rc_transaction_id'),
  rc_original_transaction_id: text('rc_original_transaction_id'),
  rc_store: text('rc_store'),
  rc_environment: text('rc_environment'),
  rc_event_at: tz('rc_event_at'),
});

export const debugRecords = pgTable('debug_records', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  client_id: id64('client_id'),
  email: text('email'),
  mb_client_id: text('mb_client_id'),
  app_access_level: text('app_access_level'),
  firebase_token_new: text('firebase_token_new'),
  firebase_token_current: text('firebase_token_current'),
  platform: text('platform'),
  platform_version: text('platform_version'),
  is_ipad: boolean('is_ipad'),
  screen_width: real('screen_width'),
  screen_height: real('screen_height'),
  device_width: real('device_width'),
  device_height: real('device_height'),
  ip: text('ip'),
  app_version: text('app_version'),
  sent_at: tz('sent_at'),
  device_constants: jsonb('device_constants'),
  network_info: jsonb('network_info'),
  created_at: tz('created_at').notNull().defaultNow(),
});

export const messageTypes = pgTable('message_types', {
  id: integer('id').primaryKey(),
  title: text('title').notNull(),
  slug: text('slug').notNull(),
});

export const pushMessages = pgTable('push_messages', {
  id: serial('id').primaryKey(),
  message_type: integer('message_type').notNull(),
  title: text('title').notNull(),
  message: text('message').notNull(),
  enabled: boolean('enabled').notNull(),
  created_at: tz('created_at').notNull().defaultNow(),
  updated_at: tz('updated_at').notNull().defaultNow(),
});

export const staffUsers = pgTable('staff_users', {
  id: serial('id').primaryKey(),
  email: text('email').notNull(),
  password_hash: text('password_hash'),
  nickname: text('nickname').notNull(),
  picture: text('picture'),
  oidc_subject: text('oidc_subject'),
  created_at: tz('created_at').notNull().defaultNow(),
  last_sign_in_at: tz('last_sign_in_at'),
  device_token: text('device_token'),
});

export const sessions = pgTable('sessions', {
  id: text('id').primaryKey(),
  staff_user_id: integer('staff_user_id').notNull(),
  created_at: tz('created_at').notNull().defaultNow(),
  last_seen_at: tz('last_seen_at').notNull().defaultNow(),
  expires_at: tz('expires_at').notNull(),
  ip: text('ip'),
  user_agent: text('user_agent'),
});

export const jobs = pgTable('jobs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  queue: text('queue').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  singleton_key: text('singleton_key'),
  state: text('state').$type<'queued' | 'running' | 'done' | 'failed'>().notNull(),
  run_at: tz('run_at').notNull(),
  attempts: integer('attempts').notNull(),
  max_attempts: integer('max_attempts').notNull(),
  locked_by: text('locked_by'),
  locked_until: tz('locked_until'),
  last_error: text('last_error'),
  result: jsonb('result'),
  created_at: tz('created_at').notNull(),
  finished_at: tz('finished_at'),
});

export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  queue: text('queue').notNull(),
  every_ms: bigint('every_ms', { mode: 'number' }).notNull(),
  next_run_at: tz('next_run_at').notNull(),
});

// 0010_data_in.sql
export const mindbodyVisits = pgTable('mindbody_visits', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  client_id: id64('client_id').notNull(),
  mb_site_id: integer('mb_site_id').notNull(),
  mb_visit_id: id64('mb_visit_id').notNull(),
  mb_client_id: text('mb_client_id'),
  class_id: id64('class_id'),
  class_name: text('class_name'),
  location_id: integer('location_id'),
  staff_id: id64('staff_id'),
  start_at: tz('start_at'),
  end_at: tz('end_at'),
  attendance: text('attendance').$type<'signed_in' | 'missed' | 'late_cancelled' | 'booked'>().notNull(),
  signed_in: boolean('signed_in').notNull(),
  missed: boolean('missed').notNull(),
  late_cancelled: boolean('late_cancelled').notNull(),
  make_up: boolean('make_up').notNull(),
  web_signup: boolean('web_signup').notNull(),
  appointment_status: text('appointment_status'),
  last_modified_at: tz('last_modified_at'),
  imported_at: tz('imported_at').notNull(),
});

export const mindbodySyncState = pgTable('mindbody_sync_state', {
  site_id: integer('site_id').primaryKey(),
  watermark: tz('watermark'),
  resume_offset: integer('resume_offset'),
  resume_since: tz('resume_since'),
  resume_started_at: tz('resume_started_at'),
});

export const mindbodySyncRuns = pgTable('mindbody_sync_runs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  site_id: integer('site_id').notNull(),
  job_id: id64('job_id'),
  kind: text('kind').$type<'full' | 'incremental'>().notNull(),
  modified_since: tz('modified_since'),
  start_offset: integer('start_offset').notNull(),
  status: text('status').$type<'running' | 'succeeded' | 'failed'>().notNull(),
  started_at: tz('started_at').notNull(),
  finished_at: tz('finished_at'),
  total_clients: integer('total_clients'),
  pages: integer('pages').notNull(),
  clients_seen: integer('clients_seen').notNull(),
  clients_created: integer('clients_created').notNull(),
  clients_updated: integer('clients_updated').notNull(),
  visits_imported: integer('visits_imported').notNull(),
  visit_errors: integer('visit_errors').notNull(),
  next_offset: integer('next_offset'),
  error: text('error'),
});

export const revenuecatEvents = pgTable('revenuecat_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  event_id: text('event_id').notNull(),
  type: text('type').notNull(),
  app_user_id: text('app_user_id'),
  original_app_user_id: text('original_app_user_id'),
  aliases: jsonb('aliases').$type<string[]>().notNull(),
  email: text('email'),
  environment: text('environment'),
  event_at: tz('event_at'),
  body: jsonb('body').$type<Record<string, unknown>>().notNull(),
  received_at: tz('received_at').notNull(),
  state: text('state').$type<'received' | 'processed' | 'unmatched' | 'ignored'>().notNull(),
  client_id: id64('client_id'),
  attempts: integer('attempts').notNull(),
  processed_at: tz('processed_at'),
  note: text('note'),
});

// 0011_login_failures.sql
export const loginFailures = pgTable('login_failures', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  email: text('email').notNull(),
  ip: text('ip').notNull(),
  at: tz('at').notNull(),
});

export const vimeoSyncs = pgTable('vimeo_syncs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  job_id: id64('job_id').notNull(),
  source: text('source').$type<'vimeo' | 'sandbox'>().notNull(),
  state: text('state').$type<'queued' | 'running' | 'done' | 'failed'>().notNull(),
  requested_by: text('requested_by'),
  pages_done: integer('pages_done').notNull(),
  pages_total: integer('pages_total'),
  videos_seen: integer('videos_seen').notNull(),
  videos_added: integer('videos_added').notNull(),
  videos_updated: integer('videos_updated').notNull(),
  videos_missing: integer('videos_missing').notNull(),
  error: text('error'),
  created_at: tz('created_at').notNull(),
  started_at: tz('started_at'),
  finished_at: tz('finished_at'),
});

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
  locked_by: text('locked_by'),
  locked_until: tz('locked_until'),
  local_day: date('local_day'),
  created_at: tz('created_at').notNull(),
  finished_at: tz('finished_at'),
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

// Customer search (migrations 0015, 0016): token tables the clients triggers keep current, and the
// queue of changes pushed to hosted Algolia when ALGOLIA_* are set.
export const searchWords = pgTable('search_words', {
  word: text('word').notNull(),
  field: integer('field').notNull(),
  sort_key: text('sort_key').notNull(),
  client_id: id64('client_id').notNull(),
});

export const searchPrefixes = pgTable('search_prefixes', {
  prefix: text('prefix').notNull(),
  field: integer('field').notNull(),
  sort_key: text('sort_key').notNull(),
  client_id: id64('client_id').notNull(),
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
