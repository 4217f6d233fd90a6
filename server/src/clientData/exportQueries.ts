import { z } from 'zod';
import type { Queryable } from '../db/client';

/**
 * Everything the studio holds about one client, as the sections of an export. Each section reads
 * one table (`t`) with the client's rows selected by `where` ($1 is the client id) and is read in
 * key order, a batch at a time. tests/server/client-export.test.ts fails when a table that refers
 * to a client is neither here nor in NOT_EXPORTED.
 */
export interface ExportSection {
  name: string;
  table: string;
  where: string;
  /** Unique together among the client's rows: the keyset the batches walk. */
  keys: string[];
  /** Extra columns beside t.*, as SQL (`expression AS name`). */
  extras?: { sql: string; name: string }[];
}

const byClient = 't.client_id = $1';

export const EXPORT_SECTIONS: ExportSection[] = [
  { name: 'profile', table: 'clients', where: 't.id = $1', keys: ['id'] },
  {
    name: 'access_level_history',
    table: 'access_override_history',
    where: byClient,
    keys: ['id'],
  },
  { name: 'purchases', table: 'purchases', where: byClient, keys: ['id'] },
  {
    name: 'revenuecat_events',
    table: 'revenuecat_events',
    // Also events that never matched the client but carry their RevenueCat id.
    where: 't.client_id = $1 OR t.app_user_id = (SELECT revenue_cat_user_id FROM clients WHERE id = $1)',
    keys: ['id'],
  },
  { name: 'contracts', table: 'contracts', where: byClient, keys: ['pk'] },
  { name: 'class_visits', table: 'mindbody_visits', where: byClient, keys: ['id'] },
  {
    name: 'streams',
    table: 'video_views',
    where: byClient,
    keys: ['id'],
    extras: [{ sql: '(SELECT title FROM videos WHERE id = t.video_id)', name: 'video_title' }],
  },
  {
    name: 'favorites',
    table: 'favorites',
    where: byClient,
    keys: ['video_id'],
    extras: [{ sql: '(SELECT title FROM videos WHERE id = t.video_id)', name: 'video_title' }],
  },
  { name: 'devices', table: 'debug_records', where: byClient, keys: ['id'] },
  { name: 'pushes', table: 'pushes', where: byClient, keys: ['id'] },
  { name: 'automated_messages', table: 'automated_pushes', where: byClient, keys: ['id'] },
  { name: 'automated_message_days', table: 'automated_push_days', where: byClient, keys: ['local_day'] },
  {
    name: 'broadcasts_received',
    table: 'broadcast_recipients',
    where: byClient,
    keys: ['broadcast_id'],
    extras: [{ sql: '(SELECT title FROM broadcasts WHERE id = t.broadcast_id)', name: 'broadcast_title' }],
  },
  {
    name: 'message_outcomes',
    table: 'message_outcomes',
    where: byClient,
    keys: ['id'],
    extras: [{ sql: '(SELECT title FROM broadcasts WHERE id = t.broadcast_id)', name: 'broadcast_title' }],
  },
  { name: 'bulk_actions', table: 'bulk_action_targets', where: byClient, keys: ['bulk_action_id'] },
  { name: 'notes', table: 'client_notes', where: byClient, keys: ['id'] },
  { name: 'tags', table: 'client_tags', where: byClient, keys: ['tag'] },
  { name: 'contacts', table: 'client_contacts', where: byClient, keys: ['id'] },
  { name: 'paid_spans', table: 'client_paid_spans', where: byClient, keys: ['starts_at'] },
  { name: 'activity', table: 'client_activity', where: byClient, keys: ['client_id'] },
  { name: 'data_requests', table: 'data_requests', where: byClient, keys: ['id'] },
  { name: 'who_looked', table: 'client_looks', where: byClient, keys: ['staff_user_id', 'hour'] },
  { name: 'audit_entries', table: 'audit_log', where: byClient, keys: ['id'] },
];

/** Tables that refer to a client but are not exported, and why. */
export const NOT_EXPORTED: Record<string, string> = {
  search_words: 'the search index: words of the profile, which is exported',
  search_prefixes: 'the search index: prefixes of the profile, which is exported',
  client_erasures: 'exists only once the client is erased, and an erased client has nothing left to export',
  erasure_outside: 'outside services still to be told of an erasure',
  erasure_tombstones: 'one-way hashes of an erased client’s identifiers',
  revenue_changes: 'the Revenue area’s figures, computed from the RevenueCat events, which are exported',
  revenue_periods: 'the Revenue area’s figures, computed from the RevenueCat events, which are exported',
  revenue_clients: 'the Revenue area’s cohort month, computed from the RevenueCat events, which are exported',
  revenue_client_months: 'the Revenue area’s cohort cells, computed from the RevenueCat events, class visits and streams, which are exported',
  client_active_months: 'the months with a class or a stream, computed from the class visits and streams, which are exported',
};

/**
 * A row of any table: the export writes every column as it is, so only that it is a row is checked
 * (not copied key by key: a client's section can hold tens of thousands of rows).
 */
const AnyRow = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value));
export type ExportRow = z.infer<typeof AnyRow>;

const keyParam = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** Up to `batch` of the client's rows of one section after `after` (its keys' values), in key order: each batch is one index range. */
export function sectionRows(database: Queryable, section: ExportSection, clientId: number, after: unknown[] | null, batch: number): Promise<ExportRow[]> {
  const extras = (section.extras ?? []).map((extra) => `, ${extra.sql} AS ${extra.name}`).join('');
  const keys = section.keys.map((key) => `t.${key}`);
  const params: unknown[] = [clientId];
  let keyset = '';
  if (after) {
    const placeholders = after.map((value) => `$${params.push(keyParam(value))}`);
    keyset = ` AND (${keys.join(', ')}) > (${placeholders.join(', ')})`;
  }
  return database.rows(
    AnyRow,
    `SELECT t.*${extras} FROM ${section.table} t WHERE (${section.where})${keyset} ORDER BY ${keys.join(', ')} LIMIT ${batch}`,
    params,
  );
}

const Column = z.object({ column_name: z.string() });

/** The section's table's columns in table order. */
export async function tableColumns(database: Queryable, table: string): Promise<string[]> {
  const rows = await database.rows(
    Column,
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((row) => row.column_name);
}
