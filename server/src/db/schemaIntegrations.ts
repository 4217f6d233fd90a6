// Tables of the ways data comes in and goes out (migrations 0007, 0010, 0011): Mindbody, RevenueCat, Vimeo, sign-in failures.
import { bigserial, boolean, date, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { tz, id64 } from './schemaColumns';

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
  // 0030_mindbody_identity.sql
  calls: integer('calls').notNull(),
  visits_deferred: integer('visits_deferred').notNull(),
  clients_merged: integer('clients_merged').notNull(),
});

// 0030_mindbody_identity.sql
export const mindbodyCallDays = pgTable('mindbody_call_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  calls: integer('calls').notNull(),
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

// 0011_login_failures.sql (indexes: *_login_attempts_by_address.sql). Sign-in attempts counted and not (yet) successful.
export const loginFailures = pgTable('login_failures', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** `accountKey` of the e-mail typed, known or not. */
  email: text('email').notNull(),
  /** `addressKey` of the caller: an IPv4 address or an IPv6 /64. */
  ip: text('ip').notNull(),
  at: tz('at').notNull(),
});

export const vimeoSyncs = pgTable('vimeo_syncs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  // null once the job is pruned (JOB_RETENTION_DAYS)
  job_id: id64('job_id'),
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
