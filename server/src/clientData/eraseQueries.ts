import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable } from '../db/client';
import { keepCounts } from './queries';

/** The statements of an erasure (erase.ts): what it reads, what it deletes or empties, and the record of it. */

const ErasureRow = z.object({ reason: z.string(), staff_email: z.string().nullable(), erased_at: timestamp });
const OutsideRow = z.object({
  service: z.enum(['algolia', 'revenuecat']),
  state: z.enum(['pending', 'done', 'failed']),
  attempts: z.number(),
  last_error: z.string().nullable(),
  done_at: timestamp.nullable(),
});

export async function erasureRow(db: Queryable, clientId: number): Promise<z.infer<typeof ErasureRow> | undefined> {
  const [row] = await db.rows(ErasureRow, 'SELECT reason, staff_email, erased_at FROM client_erasures WHERE client_id = $1', [clientId]);
  return row;
}

export const outsideRows = (db: Queryable, clientId: number) =>
  db.rows(OutsideRow, 'SELECT service, state, attempts, last_error, done_at FROM erasure_outside WHERE client_id = $1 ORDER BY id', [clientId]);

const Exists = z.object({});
const ErasedAt = z.object({ erased_at: timestamp.nullable() });

export async function clientRowExists(db: Queryable, clientId: number): Promise<boolean> {
  return (await db.rows(Exists, 'SELECT 1 FROM clients WHERE id = $1', [clientId])).length > 0;
}

/** The client's erased_at (null while not erased); undefined for an unknown client. */
export async function clientErasedAt(db: Queryable, clientId: number): Promise<Date | null | undefined> {
  const [row] = await db.rows(ErasedAt, 'SELECT erased_at FROM clients WHERE id = $1', [clientId]);
  return row?.erased_at;
}

export async function jobRunning(tx: Queryable, queue: string): Promise<boolean> {
  return (await tx.rows(Exists, `SELECT id FROM jobs WHERE queue = $1 AND state = 'running' LIMIT 1`, [queue])).length > 0;
}

const Broadcast = z.object({ id: z.number(), title: z.string().nullable() });

/** A broadcast being sent right now that has the client still to send to. */
export async function broadcastSendingTo(tx: Queryable, clientId: number): Promise<z.infer<typeof Broadcast> | undefined> {
  const [sending] = await tx.rows(
    Broadcast,
    `SELECT b.id, b.title FROM broadcast_recipients r JOIN broadcasts b ON b.id = r.broadcast_id
     WHERE r.client_id = $1 AND r.status = 'pending' AND b.status = 'sending' LIMIT 1`,
    [clientId],
  );
  return sending;
}

const ErasedClient = z.object({
  id: z.number(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email_address: z.string().nullable(),
  mb_client_id: z.string().nullable(),
  mb_site_id: z.number().nullable(),
  mb_unique_id: z.number().nullable(),
  revenue_cat_user_id: z.string().nullable(),
  erased_at: timestamp.nullable(),
});
export type ErasedClient = z.infer<typeof ErasedClient>;

/** The client, locked for the erasure. */
export async function lockClient(tx: Queryable, clientId: number): Promise<ErasedClient | undefined> {
  const [client] = await tx.rows(
    ErasedClient,
    `SELECT id, first_name, last_name, email_address, mb_client_id, mb_site_id, mb_unique_id, revenue_cat_user_id, erased_at
     FROM clients WHERE id = $1 FOR UPDATE`,
    [clientId],
  );
  return client;
}

const RevenueCatId = z.object({ id: z.string().nullable() });

/** The RevenueCat ids of the client's purchases and events. */
export async function revenuecatIdRows(tx: Queryable, clientId: number): Promise<(string | null)[]> {
  const rows = await tx.rows(
    RevenueCatId,
    `SELECT revenue_cat_user_id AS id FROM purchases WHERE client_id = $1
     UNION SELECT app_user_id FROM revenuecat_events WHERE client_id = $1
     UNION SELECT original_app_user_id FROM revenuecat_events WHERE client_id = $1
     UNION SELECT jsonb_array_elements_text(aliases) FROM revenuecat_events WHERE client_id = $1`,
    [clientId],
  );
  return rows.map((row) => row.id);
}

const AuditEntry = z.object({ id: z.number(), before: z.unknown(), after: z.unknown() });

/** The next 500 audit entries about the client after id `after`. */
export const auditEntriesAfter = (tx: Queryable, clientId: number, after: number) =>
  tx.rows(
    AuditEntry,
    `SELECT id, before, after FROM audit_log WHERE (client_id = $1 OR (target_type = 'client' AND target_id = $1::text)) AND id > $2 ORDER BY id LIMIT 500`,
    [clientId, after],
  );

export const rewriteAuditEntries = (tx: Queryable, entries: { id: number; before: unknown; after: unknown }[]) =>
  tx.execute(
    `UPDATE audit_log a SET before = u.before, after = u.after
     FROM jsonb_to_recordset($1::jsonb) AS u (id bigint, before jsonb, after jsonb) WHERE a.id = u.id`,
    [JSON.stringify(entries)],
  );

const Column = z.object({ column_name: z.string() });

/** Empties every nullable column of the client's row but `kept`, and marks it erased. */
export async function emptyClientRow(tx: Queryable, clientId: number, kept: ReadonlySet<string>, now: Date) {
  const columns = await tx.rows(
    Column,
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'clients' AND is_nullable = 'YES'`,
  );
  const emptied = columns.map((column) => column.column_name).filter((name) => !kept.has(name));
  await tx.execute(`UPDATE clients SET ${emptied.map((name) => `"${name}" = NULL`).join(', ')}, erased_at = $2, updated_at = $2 WHERE id = $1`, [
    clientId,
    now.toISOString(),
  ]);
}

const Word = z.object({ word: z.string() });
const Tokens = z.object({ firebase_token_new: z.string().nullable(), firebase_token_current: z.string().nullable() });

/**
 * Deletes or empties the client's rows in every table that names them (the clients row and the audit
 * entries aside); answers the search words the client had, for the vocabulary.
 */
export async function eraseClientRows(tx: Queryable, client: ErasedClient, revenuecatIds: string[]): Promise<string[]> {
  const id = client.id;
  // Plays per day and the other figures count views without naming anyone: they stay (migration 0085).
  await keepCounts(tx);
  const words = await tx.rows(Word, 'SELECT DISTINCT word FROM search_words WHERE client_id = $1', [id]);
  // Device tokens: the reports that hold them, also reports still waiting for this client in the holding area.
  const reports = await tx.rows(
    Tokens,
    `DELETE FROM debug_records WHERE client_id = $1
        OR (client_id IS NULL AND ((email IS NOT NULL AND lower(email) = lower($2)) OR (mb_client_id IS NOT NULL AND mb_client_id = $3)))
     RETURNING firebase_token_new, firebase_token_current`,
    [id, client.email_address ?? '', client.mb_client_id ?? ''],
  );
  const tokens = reports.flatMap((report) => [report.firebase_token_new, report.firebase_token_current]).filter((token): token is string => Boolean(token));
  if (tokens.length > 0) await tx.execute('DELETE FROM dead_push_tokens WHERE token = ANY($1::text[])', [tokens]);
  // A logged contact's note is staff's words about the person; the outcomes of messages stay (they count without naming).
  for (const table of ['favorites', 'video_views', 'client_notes', 'client_tags', 'client_contacts', 'mindbody_visits', 'contracts']) {
    await tx.execute(`DELETE FROM ${table} WHERE client_id = $1`, [id]);
  }
  await tx.execute(`UPDATE pushes SET title = '(erased)', body = '(erased)', data = NULL, results = '[]'::jsonb WHERE client_id = $1`, [id]);
  // Messages still planned for them are not sent: skipped, as for any client who cannot be reached.
  await tx.execute(
    `UPDATE automated_pushes SET title = NULL, body = NULL, context = '{}'::jsonb, last_error = NULL,
       status = CASE WHEN status = 'pending' THEN 'skipped' ELSE status END,
       skip_reason = CASE WHEN status = 'pending' THEN 'erased' ELSE skip_reason END
     WHERE client_id = $1`,
    [id],
  );
  await tx.execute('UPDATE access_override_history SET reason = NULL WHERE client_id = $1', [id]);
  await tx.execute('UPDATE purchases SET revenue_cat_user_id = NULL, rc_transaction_id = NULL, rc_original_transaction_id = NULL WHERE client_id = $1', [id]);
  await tx.execute(
    `UPDATE revenuecat_events SET app_user_id = NULL, original_app_user_id = NULL, aliases = '[]'::jsonb, email = NULL,
       body = jsonb_build_object('erased', true), note = 'erased client'
     WHERE client_id = $1 OR app_user_id = ANY($2::text[]) OR original_app_user_id = ANY($2::text[])`,
    [id, revenuecatIds],
  );
  // The Revenue area's periods keep counting (amounts and times), but not the store's transaction ids.
  await tx.execute(`UPDATE revenue_periods SET subscription = '(erased)', transaction = '(erased)' WHERE client_id = $1`, [id]);
  await tx.execute(`UPDATE broadcast_recipients SET status = 'skipped', skip_reason = 'erased' WHERE client_id = $1 AND status = 'pending'`, [id]);
  await tx.execute('UPDATE data_requests SET note = NULL WHERE client_id = $1', [id]);
  return words.map((row) => row.word);
}

/** The search words only the erased client had go from the vocabulary too (typo suggestions read it). */
export async function dropUnusedWords(tx: Queryable, words: string[]) {
  if (words.length === 0) return;
  await tx.execute('DELETE FROM search_vocab v WHERE v.word = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM search_words w WHERE w.word = v.word)', [words]);
}

export const insertErasure = (tx: Queryable, erasure: { clientId: number; reason: string; staffId: number | null; staffEmail: string | null; at: Date }) =>
  tx.execute('INSERT INTO client_erasures (client_id, reason, staff_user_id, staff_email, erased_at) VALUES ($1, $2, $3, $4, $5)', [
    erasure.clientId,
    erasure.reason,
    erasure.staffId,
    erasure.staffEmail,
    erasure.at.toISOString(),
  ]);

/** The outside services still to be told, each pending. */
export const insertOutsideTasks = (tx: Queryable, clientId: number, tasks: { service: string; target: string }[]) =>
  tx.execute(
    `INSERT INTO erasure_outside (client_id, service, target, state) SELECT $1, service, target, 'pending' FROM jsonb_to_recordset($2::jsonb) AS t (service text, target text)`,
    [clientId, JSON.stringify(tasks)],
  );
