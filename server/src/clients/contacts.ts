import type { ContactBody, ContactEntry, SnoozeBody } from '@contract/contacts';
import { DAY_MS } from '@contract/clientRules';
import { recordAudit, type Actor } from '../audit/record';
import type { Database } from '../db/client';
import { insertContact, type ContactRow } from './noteQueries';
import { requireClient } from './notes';
import { isoOrNull } from './rows';

/**
 * What staff did about a client at risk (docs/features.md#at-risk): a contact logged (called, texted,
 * left a message) or a snooze off the at-risk list for N days. Each is one row of client_contacts
 * (migration 0070), on the client's timeline, and audited in the same transaction.
 */

const toEntry = (row: ContactRow): ContactEntry => ({
  id: row.id,
  client_id: row.client_id,
  kind: row.kind,
  note: row.note,
  snoozed_until: isoOrNull(row.snoozed_until),
  staff_email: row.staff_email,
  created_at: isoOrNull(row.created_at)!,
});

async function insertEntry(
  database: Database,
  clientId: number,
  entry: { kind: ContactEntry['kind']; note: string | null; snoozedUntil: Date | null },
  actor: Actor,
  action: 'client.contact' | 'client.snooze',
): Promise<ContactEntry> {
  return database.transaction(async (tx) => {
    await requireClient(tx, clientId);
    const row = await insertContact(tx, {
      clientId,
      kind: entry.kind,
      note: entry.note,
      snoozedUntil: entry.snoozedUntil,
      staffEmail: actor.staff?.email ?? 'system',
      at: actor.at,
    });
    await recordAudit(tx, {
      ...actor,
      action,
      target_type: 'client',
      target_id: clientId,
      client_id: clientId,
      before: null,
      after: entry.snoozedUntil
        ? { snoozed_until: entry.snoozedUntil.toISOString(), ...(entry.note ? { note: entry.note } : {}) }
        : { kind: entry.kind, ...(entry.note ? { note: entry.note } : {}) },
    });
    return toEntry(row);
  });
}

export const logContact = (database: Database, clientId: number, body: ContactBody, actor: Actor) =>
  insertEntry(database, clientId, { kind: body.kind, note: body.note || null, snoozedUntil: null }, actor, 'client.contact');

export const snoozeClient = (database: Database, clientId: number, body: SnoozeBody, actor: Actor) =>
  insertEntry(
    database,
    clientId,
    { kind: 'snoozed', note: body.note || null, snoozedUntil: new Date(actor.at.getTime() + body.days * DAY_MS) },
    actor,
    'client.snooze',
  );
