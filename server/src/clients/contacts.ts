import type { ContactBody, ContactEntry, SnoozeBody } from '@contract/contacts';
import { DAY_MS } from '@contract/clientRules';
import { recordAudit, type Actor } from '../audit/record';
import type { Database } from '../db/client';
import { requireClient } from './notes';
import { isoOrNull } from './rows';

/**
 * What staff did about a client at risk (docs/features.md#at-risk): a contact logged (called, texted,
 * left a message) or a snooze off the at-risk list for N days. Each is one row of client_contacts
 * (migration 0070), on the client's timeline, and audited in the same transaction.
 */

interface ContactRow {
  id: number | string;
  client_id: number | string;
  kind: ContactEntry['kind'];
  note: string | null;
  snoozed_until: Date | string | null;
  staff_email: string;
  created_at: Date | string;
}

const COLUMNS = 'id, client_id, kind, note, snoozed_until, staff_email, created_at';

const toEntry = (row: ContactRow): ContactEntry => ({
  id: Number(row.id),
  client_id: Number(row.client_id),
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
    const [row] = await tx.query<ContactRow>(
      `INSERT INTO client_contacts (client_id, kind, note, snoozed_until, staff_email, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [clientId, entry.kind, entry.note, entry.snoozedUntil?.toISOString() ?? null, actor.staff?.email ?? 'system', actor.at.toISOString()],
    );
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
    return toEntry(row!);
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

/** SQL: client `c` is snoozed off the at-risk list at `now` (a parameter or literal). */
export const snoozedAt = (client: string, now: string) =>
  `EXISTS (SELECT 1 FROM client_contacts s WHERE s.client_id = ${client} AND s.kind = 'snoozed' AND s.snoozed_until > ${now})`;
