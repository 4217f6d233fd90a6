import { z } from 'zod';
import { timestamp } from '../db/rows';
import { ContactEntry } from '@contract/contacts';
import { TAG_SUGGESTIONS_MAX } from '@contract/notes';
import type { Queryable } from '../db/client';

/** Staff notes about a client, the client's tags, and the contacts and snoozes logged about them. */

const NoteRow = z.object({
  id: z.number(),
  client_id: z.number(),
  body: z.string(),
  author_staff_id: z.number().nullable(),
  author_email: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type NoteRow = z.infer<typeof NoteRow>;

const NOTE_COLUMNS = 'id, client_id, body, author_staff_id, author_email, created_at, updated_at';

export const noteRows = (database: Queryable, clientId: number) =>
  database.rows(NoteRow, `SELECT ${NOTE_COLUMNS} FROM client_notes WHERE client_id = $1 ORDER BY created_at DESC, id DESC`, [clientId]);

export async function insertNote(tx: Queryable, note: { clientId: number; body: string; staffId: number | null; email: string; at: Date }): Promise<NoteRow> {
  const [row] = await tx.rows(
    NoteRow,
    `INSERT INTO client_notes (client_id, body, author_staff_id, author_email, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${NOTE_COLUMNS}`,
    [note.clientId, note.body, note.staffId, note.email, note.at.toISOString()],
  );
  return row!;
}

/** The note, locked; undefined for no such note. */
export async function lockNote(tx: Queryable, noteId: number): Promise<NoteRow | undefined> {
  const [row] = await tx.rows(NoteRow, `SELECT ${NOTE_COLUMNS} FROM client_notes WHERE id = $1 FOR UPDATE`, [noteId]);
  return row;
}

export async function updateNoteBody(tx: Queryable, noteId: number, body: string, at: Date): Promise<NoteRow> {
  const [row] = await tx.rows(NoteRow, `UPDATE client_notes SET body = $2, updated_at = $3 WHERE id = $1 RETURNING ${NOTE_COLUMNS}`, [
    noteId,
    body,
    at.toISOString(),
  ]);
  return row!;
}

export const deleteNoteRow = (tx: Queryable, noteId: number) => tx.execute('DELETE FROM client_notes WHERE id = $1', [noteId]);

const Tag = z.object({ tag: z.string() });

export async function tagsOf(database: Queryable, clientId: number): Promise<string[]> {
  return (await database.rows(Tag, 'SELECT tag FROM client_tags WHERE client_id = $1 ORDER BY tag', [clientId])).map((row) => row.tag);
}

/** The client's tags become exactly `tags`. */
export async function replaceTags(tx: Queryable, clientId: number, tags: string[]): Promise<void> {
  await tx.execute('DELETE FROM client_tags WHERE client_id = $1 AND NOT (tag = ANY($2::text[]))', [clientId, tags]);
  await tx.execute('INSERT INTO client_tags (client_id, tag) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [clientId, tags]);
}

const Suggestion = z.object({ tag: z.string(), clients: z.number() });

/** Tags in use starting with `start` (all when empty), the most used first. */
export const tagSuggestionRows = (database: Queryable, start: string) =>
  database.rows(
    Suggestion,
    `SELECT tag, count(*)::int AS clients FROM client_tags WHERE $1 = '' OR starts_with(tag, $1)
     GROUP BY tag ORDER BY count(*) DESC, tag LIMIT ${TAG_SUGGESTIONS_MAX}`,
    [start],
  );

/** A logged contact as the contract gives it, with the database's timestamps. */
const ContactRow = ContactEntry.extend({ snoozed_until: timestamp.nullable(), created_at: timestamp });
export type ContactRow = z.infer<typeof ContactRow>;

const CONTACT_COLUMNS = 'id, client_id, kind, note, snoozed_until, staff_email, created_at';

export async function insertContact(
  tx: Queryable,
  contact: { clientId: number; kind: ContactRow['kind']; note: string | null; snoozedUntil: Date | null; staffEmail: string; at: Date },
): Promise<ContactRow> {
  const [row] = await tx.rows(
    ContactRow,
    `INSERT INTO client_contacts (client_id, kind, note, snoozed_until, staff_email, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${CONTACT_COLUMNS}`,
    [contact.clientId, contact.kind, contact.note, contact.snoozedUntil?.toISOString() ?? null, contact.staffEmail, contact.at.toISOString()],
  );
  return row!;
}
