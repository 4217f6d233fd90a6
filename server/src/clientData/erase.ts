import type { FastifyInstance } from 'fastify';
import { erasedLabel, sameEmail, type EraseBody, type Erasure } from '@contract/clientData';
import type { Database, Queryable, Transaction } from '../db/client';
import { recordAudit, type Actor } from '../audit/record';
import { HttpError, notFound } from '../lib/errors';
import { MINDBODY_SYNC } from '../mindbody/sync';
import { ERASE_OUTSIDE } from './outside';
import { handleRequestOf } from './requests';
import { scrubValue } from './scrub';
import { emailId, mindbodyIds, revenuecatId, storeTombstones, type Identifier } from '../lib/tombstones';

/**
 * Columns of clients an erasure keeps: what counts without naming (levels, status, dates the figures
 * read). Every other nullable column is emptied, so a personal column added later (a phone number)
 * is erased without a change here.
 */
export const KEPT_CLIENT_COLUMNS = new Set([
  'id',
  'vod_access_level',
  'purchase_access_level',
  'client_status',
  'first_login',
  'admin_updated_expiration',
  'admin_replaced_access_level',
  'created_at',
  'updated_at',
  'automated_messages_opt_out',
  'mb_site_id',
  'purchase_access_changes_at',
  'erased_at',
]);

const conflict = (message: string) => new HttpError(409, message);

interface ClientRow {
  id: number;
  first_name: string | null;
  last_name: string | null;
  email_address: string | null;
  mb_client_id: string | null;
  mb_site_id: number | null;
  mb_unique_id: number | string | null;
  revenue_cat_user_id: string | null;
  erased_at: Date | string | null;
}

/** What the confirmation must be: the client's e-mail, or for a client without one, their number ('#12'). */
export const confirmationOf = (client: Pick<ClientRow, 'id' | 'email_address'>) => client.email_address ?? `#${client.id}`;

export async function erasureOf(database: Queryable, clientId: number): Promise<Erasure | null> {
  const [row] = await database.query<{ reason: string; staff_email: string | null; erased_at: Date | string }>(
    'SELECT reason, staff_email, erased_at FROM client_erasures WHERE client_id = $1',
    [clientId],
  );
  if (!row) return null;
  const outside = await database.query<{
    service: 'algolia' | 'revenuecat';
    state: 'pending' | 'done' | 'failed';
    attempts: number;
    last_error: string | null;
    done_at: Date | string | null;
  }>('SELECT service, state, attempts, last_error, done_at FROM erasure_outside WHERE client_id = $1 ORDER BY id', [clientId]);
  return {
    client_id: clientId,
    label: erasedLabel(clientId),
    reason: row.reason,
    staff_email: row.staff_email,
    erased_at: new Date(row.erased_at).toISOString(),
    outside: outside.map((task) => ({ ...task, attempts: Number(task.attempts), done_at: task.done_at ? new Date(task.done_at).toISOString() : null })),
  };
}

/** The erasure of a known client (null: not erased); 404 for an unknown one. */
export async function erasureStatus(database: Queryable, clientId: number): Promise<Erasure | null> {
  const [client] = await database.query('SELECT 1 FROM clients WHERE id = $1', [clientId]);
  if (!client) throw notFound(`No client with id ${clientId}.`);
  return erasureOf(database, clientId);
}

/** 404 for an unknown client, 410 for an erased one: what an export (or a second erasure) answers. */
export async function requireLiveClient(database: Queryable, clientId: number): Promise<void> {
  const [row] = await database.query<{ erased_at: Date | string | null }>('SELECT erased_at FROM clients WHERE id = $1', [clientId]);
  if (!row) throw notFound(`No client with id ${clientId}.`);
  if (row.erased_at)
    throw new HttpError(410, `Client #${clientId} was erased on ${new Date(row.erased_at).toISOString().slice(0, 10)}: nothing is left of their data.`);
}

async function refuseWhileBusy(tx: Queryable, clientId: number) {
  const [running] = await tx.query<{ id: number }>(`SELECT id FROM jobs WHERE queue = $1 AND state = 'running' LIMIT 1`, [MINDBODY_SYNC]);
  if (running) throw conflict('A Mindbody import is running: erase the client once it has finished (the import could otherwise write their data again).');
  const [sending] = await tx.query<{ id: number; title: string }>(
    `SELECT b.id, b.title FROM broadcast_recipients r JOIN broadcasts b ON b.id = r.broadcast_id
     WHERE r.client_id = $1 AND r.status = 'pending' AND b.status = 'sending' LIMIT 1`,
    [clientId],
  );
  if (sending) throw conflict(`Broadcast #${sending.id} is being sent to this client right now: erase them once it has finished.`);
}

/** Every RevenueCat id the client was known by: theirs, their purchases', their events'. */
async function revenuecatIdsOf(tx: Queryable, client: ClientRow): Promise<string[]> {
  const rows = await tx.query<{ id: string | null }>(
    `SELECT revenue_cat_user_id AS id FROM purchases WHERE client_id = $1
     UNION SELECT app_user_id FROM revenuecat_events WHERE client_id = $1
     UNION SELECT original_app_user_id FROM revenuecat_events WHERE client_id = $1
     UNION SELECT jsonb_array_elements_text(aliases) FROM revenuecat_events WHERE client_id = $1`,
    [client.id],
  );
  return [...new Set([client.revenue_cat_user_id, ...rows.map((row) => row.id)].filter((id): id is string => Boolean(id && id.trim())))];
}

/** Audit entries about the client keep what was done, without who the client was. */
async function scrubAudit(tx: Queryable, clientId: number, personal: string[]) {
  const label = erasedLabel(clientId);
  let after = 0;
  for (;;) {
    const rows = await tx.query<{ id: number; before: unknown; after: unknown }>(
      `SELECT id, before, after FROM audit_log WHERE (client_id = $1 OR (target_type = 'client' AND target_id = $1::text)) AND id > $2 ORDER BY id LIMIT 500`,
      [clientId, after],
    );
    if (rows.length === 0) return;
    const changed = rows
      .map((row) => ({ id: Number(row.id), before: scrubValue(row.before, personal, label), after: scrubValue(row.after, personal, label), row }))
      .filter((entry) => JSON.stringify(entry.before) !== JSON.stringify(entry.row.before) || JSON.stringify(entry.after) !== JSON.stringify(entry.row.after));
    if (changed.length > 0) {
      await tx.query(
        `UPDATE audit_log a SET before = u.before, after = u.after
         FROM jsonb_to_recordset($1::jsonb) AS u (id bigint, before jsonb, after jsonb) WHERE a.id = u.id`,
        [JSON.stringify(changed.map(({ id, before, after: next }) => ({ id, before, after: next })))],
      );
    }
    after = Number(rows[rows.length - 1]!.id);
  }
}

async function emptyClientRow(tx: Queryable, clientId: number, now: Date) {
  const columns = await tx.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'clients' AND is_nullable = 'YES'`,
  );
  const emptied = columns.map((column) => column.column_name).filter((name) => !KEPT_CLIENT_COLUMNS.has(name));
  await tx.query(`UPDATE clients SET ${emptied.map((name) => `"${name}" = NULL`).join(', ')}, erased_at = $2, updated_at = $2 WHERE id = $1`, [
    clientId,
    now.toISOString(),
  ]);
}

/** The database part of an erasure, in the caller's transaction: nothing of it stays done if any step fails. */
async function eraseInDatabase(tx: Transaction, client: ClientRow, revenuecatIds: string[], now: Date) {
  const id = client.id;
  // Plays per day and the other figures count views without naming anyone: they stay (migration 0085).
  await tx.query("SELECT set_config('studio.keep_counts', 'on', true)");
  const words = await tx.query<{ word: string }>('SELECT DISTINCT word FROM search_words WHERE client_id = $1', [id]);
  // Device tokens: the reports that hold them, also reports still waiting for this client in the holding area.
  const reports = await tx.query<{ firebase_token_new: string | null; firebase_token_current: string | null }>(
    `DELETE FROM debug_records WHERE client_id = $1
        OR (client_id IS NULL AND ((email IS NOT NULL AND lower(email) = lower($2)) OR (mb_client_id IS NOT NULL AND mb_client_id = $3)))
     RETURNING firebase_token_new, firebase_token_current`,
    [id, client.email_address ?? '', client.mb_client_id ?? ''],
  );
  const tokens = reports.flatMap((report) => [report.firebase_token_new, report.firebase_token_current]).filter((token): token is string => Boolean(token));
  if (tokens.length > 0) await tx.query('DELETE FROM dead_push_tokens WHERE token = ANY($1::text[])', [tokens]);
  // A logged contact's note is staff's words about the person; the outcomes of messages stay (they count without naming).
  for (const table of ['favorites', 'video_views', 'client_notes', 'client_tags', 'client_contacts', 'mindbody_visits', 'contracts']) {
    await tx.query(`DELETE FROM ${table} WHERE client_id = $1`, [id]);
  }
  await tx.query(`UPDATE pushes SET title = '(erased)', body = '(erased)', data = NULL, results = '[]'::jsonb WHERE client_id = $1`, [id]);
  // Messages still planned for them are not sent: skipped, as for any client who cannot be reached.
  await tx.query(
    `UPDATE automated_pushes SET title = NULL, body = NULL, context = '{}'::jsonb, last_error = NULL,
       status = CASE WHEN status = 'pending' THEN 'skipped' ELSE status END,
       skip_reason = CASE WHEN status = 'pending' THEN 'erased' ELSE skip_reason END
     WHERE client_id = $1`,
    [id],
  );
  await tx.query('UPDATE access_override_history SET reason = NULL WHERE client_id = $1', [id]);
  await tx.query('UPDATE purchases SET revenue_cat_user_id = NULL, rc_transaction_id = NULL, rc_original_transaction_id = NULL WHERE client_id = $1', [id]);
  await tx.query(
    `UPDATE revenuecat_events SET app_user_id = NULL, original_app_user_id = NULL, aliases = '[]'::jsonb, email = NULL,
       body = jsonb_build_object('erased', true), note = 'erased client'
     WHERE client_id = $1 OR app_user_id = ANY($2::text[]) OR original_app_user_id = ANY($2::text[])`,
    [id, revenuecatIds],
  );
  // The Revenue area's periods keep counting (amounts and times), but not the store's transaction ids.
  await tx.query(`UPDATE revenue_periods SET subscription = '(erased)', transaction = '(erased)' WHERE client_id = $1`, [id]);
  await tx.query(`UPDATE broadcast_recipients SET status = 'skipped', skip_reason = 'erased' WHERE client_id = $1 AND status = 'pending'`, [id]);
  await tx.query('UPDATE data_requests SET note = NULL WHERE client_id = $1', [id]);
  const personal = [
    client.first_name,
    client.last_name,
    [client.first_name, client.last_name].filter(Boolean).join(' '),
    client.email_address,
    client.mb_client_id,
    ...revenuecatIds,
  ];
  await scrubAudit(
    tx,
    id,
    personal.filter((text): text is string => Boolean(text)),
  );
  await emptyClientRow(tx, id, now);
  // The search words only this client had go from the vocabulary too (typo suggestions read it).
  if (words.length > 0) {
    await tx.query('DELETE FROM search_vocab v WHERE v.word = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM search_words w WHERE w.word = v.word)', [
      words.map((row) => row.word),
    ]);
  }
}

/**
 * Erases one client: one transaction for everything in our database (the row stays, emptied, as
 * 'erased client #N', so figures keep counting it), and in the same transaction the outside services
 * to tell and the job that tells them, so a restart finishes the work instead of leaving it half-done.
 */
export async function eraseClient(app: FastifyInstance, clientId: number, body: EraseBody, actor: Actor): Promise<Erasure> {
  const database: Database = app.database;
  const now = actor.at;
  await database.transaction(async (tx) => {
    const [client] = await tx.query<ClientRow>(
      `SELECT id, first_name, last_name, email_address, mb_client_id, mb_site_id, mb_unique_id, revenue_cat_user_id, erased_at
       FROM clients WHERE id = $1 FOR UPDATE`,
      [clientId],
    );
    if (!client) throw notFound(`No client with id ${clientId}.`);
    if (client.erased_at) {
      throw conflict(`Client #${clientId} was already erased on ${new Date(client.erased_at).toISOString().slice(0, 10)}.`);
    }
    const expected = confirmationOf(client);
    if (!(client.email_address ? sameEmail(body.confirm_email, client.email_address) : body.confirm_email.trim() === expected)) {
      throw new HttpError(
        422,
        client.email_address
          ? "The e-mail typed does not match the client's e-mail: nothing was erased."
          : `This client has no e-mail: type ${expected} to confirm. Nothing was erased.`,
        [{ path: 'body.confirm_email', message: 'does not match' }],
      );
    }
    await refuseWhileBusy(tx, clientId);
    const revenuecatIds = await revenuecatIdsOf(tx, client);
    const identifiers: Identifier[] = [
      ...[emailId(client.email_address)].filter((identifier): identifier is Identifier => identifier !== null),
      ...mindbodyIds(client.mb_site_id === null ? null : Number(client.mb_site_id), client.mb_client_id, client.mb_unique_id),
      ...revenuecatIds.map((rcId) => revenuecatId(rcId)!),
    ];
    await storeTombstones(tx, clientId, identifiers, now);
    await eraseInDatabase(tx, client, revenuecatIds, now);
    await tx.query('INSERT INTO client_erasures (client_id, reason, staff_user_id, staff_email, erased_at) VALUES ($1, $2, $3, $4, $5)', [
      clientId,
      body.reason,
      actor.staff?.id ?? null,
      actor.staff?.email ?? null,
      now.toISOString(),
    ]);
    const tasks = [{ service: 'algolia', target: String(clientId) }, ...revenuecatIds.map((target) => ({ service: 'revenuecat', target }))];
    await tx.query(
      `INSERT INTO erasure_outside (client_id, service, target, state) SELECT $1, service, target, 'pending' FROM jsonb_to_recordset($2::jsonb) AS t (service text, target text)`,
      [clientId, JSON.stringify(tasks)],
    );
    await handleRequestOf(tx, { kind: 'erasure', clientId, by: actor.staff?.email ?? null, at: now });
    await recordAudit(tx, {
      ...actor,
      action: 'client.erase',
      target_type: 'client',
      target_id: clientId,
      client_id: clientId,
      before: null,
      after: { client: erasedLabel(clientId), reason: body.reason, outside: tasks.map((task) => task.service) },
    });
    await app.jobs.sendMany(ERASE_OUTSIDE, [{ payload: { client_id: clientId }, singleton_key: `erase:${clientId}` }], tx);
  });
  return (await erasureOf(database, clientId))!;
}
