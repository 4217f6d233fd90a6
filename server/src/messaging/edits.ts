import type { PushMessage } from '@contract/messaging';
import { unknownPlaceholders } from '@contract/placeholders';
import type { Database } from '../db/client';
import { badRequest, notFound } from '../lib/errors';
import { changedFields, recordAudit, type Actor } from '../audit/record';
import { addMessage, findMessage, updateMessage, type MessageFields } from './queries';

/** Automated sending fills templates by itself: an enabled template must not contain a placeholder nothing fills. */
export function unknownPlaceholderRefusal(fields: { title: string; message: string; enabled: boolean }): string | undefined {
  if (!fields.enabled) return undefined;
  const unknown = unknownPlaceholders(`${fields.title} ${fields.message}`);
  if (unknown.length === 0) return undefined;
  return `This message cannot be enabled: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a placeholder' : 'are not placeholders'}. Use {first_name}, {last_name}, {class_name}, {days_absent} or {class_count}, or save it disabled.`;
}

/** Stores staff's edit of a template with its audit entry; 400 for an unknown placeholder, 404 for no such message. */
export async function saveMessage(database: Database, id: number, fields: MessageFields, actor: Actor): Promise<PushMessage> {
  const refusal = unknownPlaceholderRefusal(fields);
  if (refusal) throw badRequest(refusal);
  const stored = await database.transaction(async (tx) => {
    const before = await findMessage(tx, id);
    if (!before) return undefined;
    const after = await updateMessage(tx, id, fields, actor.at);
    await recordAudit(tx, { ...actor, action: 'message.update', target_type: 'message', target_id: id, ...changedFields(before, after) });
    return after;
  });
  if (!stored) throw notFound(`Push message ${id} does not exist.`);
  return stored;
}

/** Adds a template with its audit entry, or says why it cannot be stored (answered in-band by add-new). */
export async function createMessage(
  database: Database,
  fields: Required<MessageFields>,
  actor: Actor,
): Promise<{ refusal: string } | { created: PushMessage }> {
  const refusal = unknownPlaceholderRefusal(fields);
  if (refusal) return { refusal };
  const created = await database.transaction(async (tx) => {
    const message = await addMessage(tx, fields, actor.at);
    await recordAudit(tx, { ...actor, action: 'message.create', target_type: 'message', target_id: message.id, before: null, after: message });
    return message;
  });
  return { created };
}
