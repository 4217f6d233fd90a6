import type { Note } from '@contract/notes';
import { TAG_SUGGESTIONS_MAX } from '@contract/notes';
import { recordAudit, type Actor } from '../audit/record';
import type { Database, Queryable } from '../db/client';
import { HttpError, notFound } from '../lib/errors';
import { mayChangeNote, sameTags, tagSet } from './noteRules';
import { isoOrNull } from './rows';

/** Staff notes about a client and the client's tags, each change audited. */

interface NoteRow {
  id: number | string;
  client_id: number | string;
  body: string;
  author_staff_id: number | null;
  author_email: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const NOTE_COLUMNS = 'id, client_id, body, author_staff_id, author_email, created_at, updated_at';

const toNote = (row: NoteRow, staffId: number | null): Note => ({
  id: Number(row.id),
  client_id: Number(row.client_id),
  body: row.body,
  author_email: row.author_email,
  created_at: isoOrNull(row.created_at)!,
  updated_at: isoOrNull(row.updated_at)!,
  mine: mayChangeNote(row.author_staff_id, staffId),
});

export async function requireClient(database: Queryable, clientId: number, lock = false) {
  const [client] = await database.query(`SELECT id FROM clients WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [clientId]);
  if (!client) throw notFound(`No client with id ${clientId}`);
}

export async function listNotes(database: Queryable, clientId: number, staffId: number | null): Promise<Note[]> {
  await requireClient(database, clientId);
  const rows = await database.query<NoteRow>(`SELECT ${NOTE_COLUMNS} FROM client_notes WHERE client_id = $1 ORDER BY created_at DESC, id DESC`, [clientId]);
  return rows.map((row) => toNote(row, staffId));
}

export async function addNote(database: Database, clientId: number, body: string, actor: Actor): Promise<Note> {
  return database.transaction(async (tx) => {
    await requireClient(tx, clientId);
    const at = actor.at.toISOString();
    const [row] = await tx.query<NoteRow>(
      `INSERT INTO client_notes (client_id, body, author_staff_id, author_email, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${NOTE_COLUMNS}`,
      [clientId, body, actor.staff?.id ?? null, actor.staff?.email ?? 'system', at],
    );
    await recordAudit(tx, {
      ...actor,
      action: 'client.note_add',
      target_type: 'client_note',
      target_id: Number(row!.id),
      client_id: clientId,
      before: null,
      after: { body },
    });
    return toNote(row!, actor.staff?.id ?? null);
  });
}

/** The note, locked, once the actor may change it. 404: no such note; 403: someone else's. */
async function ownNote(tx: Queryable, noteId: number, actor: Actor): Promise<NoteRow> {
  const [row] = await tx.query<NoteRow>(`SELECT ${NOTE_COLUMNS} FROM client_notes WHERE id = $1 FOR UPDATE`, [noteId]);
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
    const [row] = await tx.query<NoteRow>(`UPDATE client_notes SET body = $2, updated_at = $3 WHERE id = $1 RETURNING ${NOTE_COLUMNS}`, [
      noteId,
      body,
      actor.at.toISOString(),
    ]);
    await recordAudit(tx, {
      ...actor,
      action: 'client.note_update',
      target_type: 'client_note',
      target_id: noteId,
      client_id: Number(before.client_id),
      before: { body: before.body },
      after: { body },
    });
    return toNote(row!, actor.staff?.id ?? null);
  });
}

export async function deleteNote(database: Database, noteId: number, actor: Actor): Promise<{ id: number }> {
  return database.transaction(async (tx) => {
    const before = await ownNote(tx, noteId, actor);
    await tx.query('DELETE FROM client_notes WHERE id = $1', [noteId]);
    await recordAudit(tx, {
      ...actor,
      action: 'client.note_delete',
      target_type: 'client_note',
      target_id: noteId,
      client_id: Number(before.client_id),
      before: { body: before.body },
      after: null,
    });
    return { id: noteId };
  });
}

export async function clientTags(database: Queryable, clientId: number): Promise<string[]> {
  const rows = await database.query<{ tag: string }>('SELECT tag FROM client_tags WHERE client_id = $1 ORDER BY tag', [clientId]);
  return rows.map((row) => row.tag);
}

/** Replaces the client's tags; audited when they changed. 404: no such client. */
export async function setTags(database: Database, clientId: number, tags: readonly string[], actor: Actor): Promise<string[]> {
  const wanted = tagSet(tags);
  return database.transaction(async (tx) => {
    // Locking the client serialises two staff members saving tags at once.
    await requireClient(tx, clientId, true);
    const before = await clientTags(tx, clientId);
    if (sameTags(before, wanted)) return before;
    await tx.query('DELETE FROM client_tags WHERE client_id = $1 AND NOT (tag = ANY($2::text[]))', [clientId, wanted]);
    await tx.query('INSERT INTO client_tags (client_id, tag) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [clientId, wanted]);
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
  const rows = await database.query<{ tag: string; clients: number }>(
    `SELECT tag, count(*)::int AS clients FROM client_tags WHERE $1 = '' OR starts_with(tag, $1)
     GROUP BY tag ORDER BY count(*) DESC, tag LIMIT ${TAG_SUGGESTIONS_MAX}`,
    [start],
  );
  return rows.map((row) => ({ tag: row.tag, clients: Number(row.clients) }));
}
