import type { FastifyInstance } from 'fastify';
import { erasedLabel, sameEmail, type EraseBody, type Erasure } from '@contract/clientData';
import type { Database, Queryable } from '../db/client';
import { recordAudit, type Actor } from '../audit/record';
import { HttpError, notFound } from '../lib/errors';
import { MINDBODY_SYNC } from '../mindbody/sync';
import { ERASE_OUTSIDE } from './outside';
import { handleRequestOf } from './requests';
import { scrubValue } from './scrub';
import { emailId, mindbodyIds, revenuecatId, storeTombstones, type Identifier } from '../lib/tombstones';
import {
  auditEntriesAfter,
  broadcastSendingTo,
  clientErasedAt,
  clientRowExists,
  dropUnusedWords,
  emptyClientRow,
  eraseClientRows,
  erasureRow,
  insertErasure,
  insertOutsideTasks,
  jobRunning,
  lockClient,
  outsideRows,
  revenuecatIdRows,
  rewriteAuditEntries,
  type ErasedClient,
} from './eraseQueries';

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

/** What the confirmation must be: the client's e-mail, or for a client without one, their number ('#12'). */
export const confirmationOf = (client: Pick<ErasedClient, 'id' | 'email_address'>) => client.email_address ?? `#${client.id}`;

export async function erasureOf(database: Queryable, clientId: number): Promise<Erasure | null> {
  const row = await erasureRow(database, clientId);
  if (!row) return null;
  const outside = await outsideRows(database, clientId);
  return {
    client_id: clientId,
    label: erasedLabel(clientId),
    reason: row.reason,
    staff_email: row.staff_email,
    erased_at: row.erased_at.toISOString(),
    outside: outside.map((task) => ({ ...task, done_at: task.done_at ? task.done_at.toISOString() : null })),
  };
}

/** The erasure of a known client (null: not erased); 404 for an unknown one. */
export async function erasureStatus(database: Queryable, clientId: number): Promise<Erasure | null> {
  if (!(await clientRowExists(database, clientId))) throw notFound(`No client with id ${clientId}.`);
  return erasureOf(database, clientId);
}

/** 404 for an unknown client, 410 for an erased one: what an export (or a second erasure) answers. */
export async function requireLiveClient(database: Queryable, clientId: number): Promise<void> {
  const erasedAt = await clientErasedAt(database, clientId);
  if (erasedAt === undefined) throw notFound(`No client with id ${clientId}.`);
  if (erasedAt) throw new HttpError(410, `Client #${clientId} was erased on ${erasedAt.toISOString().slice(0, 10)}: nothing is left of their data.`);
}

async function refuseWhileBusy(tx: Queryable, clientId: number) {
  if (await jobRunning(tx, MINDBODY_SYNC))
    throw conflict('A Mindbody import is running: erase the client once it has finished (the import could otherwise write their data again).');
  const sending = await broadcastSendingTo(tx, clientId);
  if (sending) throw conflict(`Broadcast #${sending.id} is being sent to this client right now: erase them once it has finished.`);
}

/** Every RevenueCat id the client was known by: theirs, their purchases', their events'. */
async function revenuecatIdsOf(tx: Queryable, client: ErasedClient): Promise<string[]> {
  const ids = await revenuecatIdRows(tx, client.id);
  return [...new Set([client.revenue_cat_user_id, ...ids].filter((id): id is string => Boolean(id && id.trim())))];
}

/** Audit entries about the client keep what was done, without who the client was. */
async function scrubAudit(tx: Queryable, clientId: number, personal: string[]) {
  const label = erasedLabel(clientId);
  let after = 0;
  for (;;) {
    const rows = await auditEntriesAfter(tx, clientId, after);
    if (rows.length === 0) return;
    const changed = rows
      .map((row) => ({ id: row.id, before: scrubValue(row.before, personal, label), after: scrubValue(row.after, personal, label), row }))
      .filter((entry) => JSON.stringify(entry.before) !== JSON.stringify(entry.row.before) || JSON.stringify(entry.after) !== JSON.stringify(entry.row.after));
    if (changed.length > 0) {
      await rewriteAuditEntries(
        tx,
        changed.map(({ id, before, after: next }) => ({ id, before, after: next })),
      );
    }
    after = rows[rows.length - 1]!.id;
  }
}

/** The database part of an erasure, in the caller's transaction: nothing of it stays done if any step fails. */
async function eraseInDatabase(tx: Queryable, client: ErasedClient, revenuecatIds: string[], now: Date) {
  const id = client.id;
  const words = await eraseClientRows(tx, client, revenuecatIds);
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
  await emptyClientRow(tx, id, KEPT_CLIENT_COLUMNS, now);
  await dropUnusedWords(tx, words);
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
    const client = await lockClient(tx, clientId);
    if (!client) throw notFound(`No client with id ${clientId}.`);
    if (client.erased_at) {
      throw conflict(`Client #${clientId} was already erased on ${client.erased_at.toISOString().slice(0, 10)}.`);
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
      ...mindbodyIds(client.mb_site_id, client.mb_client_id, client.mb_unique_id),
      ...revenuecatIds.map((rcId) => revenuecatId(rcId)!),
    ];
    await storeTombstones(tx, clientId, identifiers, now);
    await eraseInDatabase(tx, client, revenuecatIds, now);
    await insertErasure(tx, { clientId, reason: body.reason, staffId: actor.staff?.id ?? null, staffEmail: actor.staff?.email ?? null, at: now });
    const tasks = [{ service: 'algolia', target: String(clientId) }, ...revenuecatIds.map((target) => ({ service: 'revenuecat', target }))];
    await insertOutsideTasks(tx, clientId, tasks);
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
