import { asc, eq } from 'drizzle-orm';
import type { PushMessage } from '@contract/messaging';
import type { Db } from '../db/client';
import { messageTypes, pushMessages } from '../db/schema';

const columns = {
  id: pushMessages.id,
  title: pushMessages.title,
  message: pushMessages.message,
  enabled: pushMessages.enabled,
  message_type: pushMessages.message_type,
  msg_type_title: messageTypes.title,
};

const withTypeTitle = (db: Db) => db.select(columns).from(pushMessages).innerJoin(messageTypes, eq(messageTypes.id, pushMessages.message_type));

export function listMessages(db: Db, typeId: number): Promise<PushMessage[]> {
  return withTypeTitle(db).where(eq(pushMessages.message_type, typeId)).orderBy(asc(pushMessages.id));
}

export async function findMessage(db: Db, id: number): Promise<PushMessage | undefined> {
  const [row] = await withTypeTitle(db).where(eq(pushMessages.id, id)).limit(1);
  return row;
}

export interface MessageFields {
  title: string;
  message: string;
  enabled: boolean;
  message_type?: number;
}

/** Stores the edited fields; undefined when no message has that id. */
export async function updateMessage(db: Db, id: number, fields: MessageFields, now: Date): Promise<PushMessage | undefined> {
  const { message_type, ...rest } = fields;
  const updated = await db
    .update(pushMessages)
    .set({ ...rest, ...(message_type === undefined ? {} : { message_type }), updated_at: now })
    .where(eq(pushMessages.id, id))
    .returning({ id: pushMessages.id });
  return updated.length ? findMessage(db, id) : undefined;
}

export async function addMessage(db: Db, fields: Required<MessageFields>, now: Date): Promise<PushMessage> {
  const [created] = await db
    .insert(pushMessages)
    .values({ ...fields, created_at: now, updated_at: now })
    .returning({ id: pushMessages.id });
  return (await findMessage(db, created!.id))!;
}
