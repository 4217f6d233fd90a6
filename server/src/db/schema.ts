// Typed view of the tables that server/migrations/*.sql create. The SQL files are the source of
// truth (both drivers run them); keep these files in step with them in the same commit. The core
// tables are here; the others are re-exported so `import * as schema` still sees every table.
import { bigint, bigserial, boolean, integer, jsonb, pgTable, primaryKey, real, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tz, id64 } from './schemaColumns';
import type { Role } from '@contract/permissions';

export * from './schemaIntegrations';
export * from './schemaDerived';
export * from './schemaSegmentsBroadcasts';
export * from './schemaClientNotes';
export * from './schemaDataRights';
export * from './schemaRevenue';
export * from './schemaTwoStep';

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
  // 0030_mindbody_identity.sql
  mb_unique_id: id64('mb_unique_id'),
  mb_last_modified_at: tz('mb_last_modified_at'),
  mb_visits_due_since: tz('mb_visits_due_since'),
  /** When the purchase-derived level next changes by time alone (migration 0031); the expiry job watches it. */
  purchase_access_changes_at: tz('purchase_access_changes_at'),
  /** Set by an erasure (migration 0085): the row stays, emptied of what named the client, so figures keep counting it. */
  erased_at: tz('erased_at'),
  /** Mindbody's phone number (migration 0070). */
  phone: text('phone'),
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
  reason: text('reason'),
  end_kind: text('end_kind'),
  ended_by: text('ended_by'),
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

export const videoViews = pgTable(
  'video_views',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    client_id: id64('client_id').notNull(),
    video_id: integer('video_id').notNull(),
    viewed_at: tz('viewed_at').notNull().defaultNow(),
  },
  // migration 0029: one view, one row
  (table) => [uniqueIndex('video_views_once').on(table.client_id, table.video_id, table.viewed_at)],
);

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
  grace_period_expires_at: tz('grace_period_expires_at'),
  sandbox_accepted: boolean('sandbox_accepted').notNull().default(false),
  // migration 0031: set by the purchases_entitlement trigger from the fields above (the rule of integrations/revenuecat/entitlement.ts)
  grants_access: boolean('grants_access').notNull().default(true),
  access_ends_at: tz('access_ends_at'),
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
  used_for_push: boolean('used_for_push').notNull().default(true),
  identity_verified: boolean('identity_verified').notNull().default(false),
  received_from: text('received_from'),
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
  role: text('role').$type<Role>().notNull(),
  disabled_at: tz('disabled_at'),
  two_step_at: tz('two_step_at'),
});

export const sessions = pgTable('sessions', {
  id: text('id').primaryKey(),
  staff_user_id: integer('staff_user_id').notNull(),
  created_at: tz('created_at').notNull().defaultNow(),
  last_seen_at: tz('last_seen_at').notNull().defaultNow(),
  expires_at: tz('expires_at').notNull(),
  ip: text('ip'),
  user_agent: text('user_agent'),
  verified_at: tz('verified_at').notNull().defaultNow(),
  second_step: text('second_step'),
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
  /** Written at each claim; a heartbeat, completion or failure only counts with the token it was claimed with. */
  claim_token: text('claim_token'),
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
