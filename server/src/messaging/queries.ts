import { z } from 'zod';
import { PushMessage } from '@contract/messaging';
import type { Queryable } from '../db/client';

const IdRow = z.object({ id: z.number() });

const WITH_TYPE_TITLE = `SELECT m.id, m.title, m.message, m.enabled, m.message_type, t.title AS msg_type_title
  FROM push_messages m JOIN message_types t ON t.id = m.message_type`;

export function listMessages(database: Queryable, typeId: number): Promise<PushMessage[]> {
  return database.rows(PushMessage, `${WITH_TYPE_TITLE} WHERE m.message_type = $1 ORDER BY m.id`, [typeId]);
}

export async function findMessage(database: Queryable, id: number): Promise<PushMessage | undefined> {
  const [row] = await database.rows(PushMessage, `${WITH_TYPE_TITLE} WHERE m.id = $1 LIMIT 1`, [id]);
  return row;
}

export interface MessageFields {
  title: string;
  message: string;
  enabled: boolean;
  message_type?: number;
}

/** Stores the edited fields; undefined when no message has that id. */
export async function updateMessage(database: Queryable, id: number, fields: MessageFields, now: Date): Promise<PushMessage | undefined> {
  const updated = await database.rows(
    IdRow,
    `UPDATE push_messages SET title = $2, message = $3, enabled = $4, message_type = COALESCE($5::int, message_type), updated_at = $6
     WHERE id = $1 RETURNING id`,
    [id, fields.title, fields.message, fields.enabled, fields.message_type ?? null, now.toISOString()],
  );
  return updated.length ? findMessage(database, id) : undefined;
}

export async function addMessage(database: Queryable, fields: Required<MessageFields>, now: Date): Promise<PushMessage> {
  const [created] = await database.rows(
    IdRow,
    `INSERT INTO push_messages (title, message, enabled, message_type, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
    [fields.title, fields.message, fields.enabled, fields.message_type, now.toISOString()],
  );
  return (await findMessage(database, created!.id))!;
}
