import type { Note } from '@contract/notes';
import { recordAudit, type Actor } from '../audit/record';
import type { Database, Queryable } from '../db/client';
import { HttpError, notFound } from '../lib/errors';
import { mayChangeNote, sameTags, tagSet } from './noteRules';
import { clientIdExists } from './queries';
import { deleteNoteRow, insertNote, lockNote, noteRows, replaceTags, tagSuggestionRows, tagsOf, updateNoteBody, type NoteRow } from './noteQueries';
import { isoOrNull } from './rows';

/** Staff notes about a client and the client's tags, each change audited. */

const toNote = (row: NoteRow, staffId: number | null): Note => ({
  id: row.id,
  client_id: row.client_id,
  body: row.body,
  author_email: row.author_email,
  created_at: isoOrNull(row.created_at)!,
  updated_at: isoOrNull(row.updated_at)!,
  mine: mayChangeNote(row.author_staff_id, staffId),
});

export async function requireClient(database: Queryable, clientId: number, lock = false) {
  if (!(await clientIdExists(database, clientId, lock))) throw notFound(`No client with id ${clientId}`);
}

export async function listNotes(database: Queryable, clientId: number, staffId: number | null): Promise<Note[]> {
  await requireClient(database, clientId);
  const rows = await noteRows(database, clientId);
  return rows.map((row) => toNote(row, staffId));
}

export async function addNote(database: Database, clientId: number, body: string, actor: Actor): Promise<Note> {
  return database.transaction(async (tx) => {
    await requireClient(tx, clientId);
    const row = await insertNote(tx, { clientId, body, staffId: actor.staff?.id ?? null, email: actor.staff?.email ?? 'system', at: actor.at });
    await recordAudit(tx, {
      ...actor,
      action: 'client.note_add',
      target_type: 'client_note',
      target_id: row.id,
      client_id: clientId,
      before: null,
      after: { body },
    });
    return toNote(row, actor.staff?.id ?? null);
  });
}

/** The note, locked, once the actor may change it. 404: no such note; 403: someone else's. */
async function ownNote(tx: Queryable, noteId: number, actor: Actor): Promise<NoteRow> {
  const row = await lockNote(tx, noteId);
  if (!row) throw notFound(`No note with id ${noteId}`);
  if (!mayChangeNote(row.author_staff_id, actor.staff?.id)) {
    throw new HttpError(403, `Only the author of a note may change it (note ${noteId} is ${row.author_email}'s)`, [{ path: 'id', message: 'not your note' }]);
  }
  return row;
}

export async function updateNote(database: Database, noteId: number, body: string, actor: Actor): Promise<Note> {
  return database.transaction(async (tx) => {
    const before = await ownNote(tx, noteId, actor);
    if (before.body === body) return toNote(before, actor.staff?.id ?? null);
    const row = await updateNoteBody(tx, noteId, body, actor.at);
    await recordAudit(tx, {
      ...actor,
      action: 'client.note_update',
      target_type: 'client_note',
      target_id: noteId,
      client_id: before.client_id,
      before: { body: before.body },
      after: { body },
    });
    return toNote(row, actor.staff?.id ?? null);
  });
}

export async function deleteNote(database: Database, noteId: number, actor: Actor): Promise<{ id: number }> {
  return database.transaction(async (tx) => {
    const before = await ownNote(tx, noteId, actor);
    await deleteNoteRow(tx, noteId);
    await recordAudit(tx, {
      ...actor,
      action: 'client.note_delete',
      target_type: 'client_note',
      target_id: noteId,
      client_id: before.client_id,
      before: { body: before.body },
      after: null,
    });
    return { id: noteId };
  });
}

export async function clientTags(database: Queryable, clientId: number): Promise<string[]> {
  return tagsOf(database, clientId);
}

/** Replaces the client's tags; audited when they changed. 404: no such client. */
export async function setTags(database: Database, clientId: number, tags: readonly string[], actor: Actor): Promise<string[]> {
  const wanted = tagSet(tags);
  return database.transaction(async (tx) => {
    // Locking the client serialises two staff members saving tags at once.
    await requireClient(tx, clientId, true);
    const before = await clientTags(tx, clientId);
    if (sameTags(before, wanted)) return before;
    await replaceTags(tx, clientId, wanted);
    await recordAudit(tx, {
      ...actor,
      action: 'client.tags',
      target_type: 'client',
      target_id: clientId,
      client_id: clientId,
      before: { tags: before },
      after: { tags: wanted },
    });
    return wanted;
  });
}

/** Tags in use starting with `prefix`, the most used first: the tag field's autocomplete. */
export async function tagSuggestions(database: Queryable, prefix: string | undefined): Promise<{ tag: string; clients: number }[]> {
  const start = (prefix ?? '').trim().toLowerCase();
  return tagSuggestionRows(database, start);
}
