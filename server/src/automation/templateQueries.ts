import { z } from 'zod';
import type { Database } from '../db/client';

const TemplateRow = z.object({ id: z.number(), message_type: z.number(), title: z.string(), message: z.string() });
export type Template = z.infer<typeof TemplateRow>;
const PreviousRow = z.object({ push_message_id: z.number().nullable() });

export async function enabledTemplates(database: Database): Promise<Map<number, Template[]>> {
  const rows = await database.rows(TemplateRow, 'SELECT id, message_type, title, message FROM push_messages WHERE enabled ORDER BY id');
  const byType = new Map<number, Template[]>();
  for (const row of rows) byType.set(row.message_type, [...(byType.get(row.message_type) ?? []), row]);
  return byType;
}

export async function enabledTemplatesOf(database: Database, messageType: number): Promise<Template[]> {
  return database.rows(TemplateRow, 'SELECT id, message_type, title, message FROM push_messages WHERE enabled AND message_type = $1 ORDER BY id', [
    messageType,
  ]);
}

/** The template the client got last for this type (rotation), or null. */
export async function previousTemplate(database: Database, clientId: number, messageType: number): Promise<number | null> {
  const [row] = await database.rows(
    PreviousRow,
    `SELECT push_message_id FROM automated_pushes WHERE client_id = $1 AND message_type = $2 AND status = 'sent'
     ORDER BY finished_at DESC, id DESC LIMIT 1`,
    [clientId, messageType],
  );
  return row?.push_message_id ?? null;
}
