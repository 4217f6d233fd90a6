// The templates an automated push is made from: which are enabled, which one a client got last, and the values
// that fill their placeholders.
import type { AutomationTypeSettings } from '@contract/automation';
import type { PlaceholderValues } from '@contract/placeholders';
import type { Database } from '../db/client';

export interface Template {
  id: number;
  message_type: number;
  title: string;
  message: string;
}

export async function enabledTemplates(database: Database): Promise<Map<number, Template[]>> {
  const rows = await database.query<Template>('SELECT id, message_type, title, message FROM push_messages WHERE enabled ORDER BY id');
  const byType = new Map<number, Template[]>();
  for (const row of rows) byType.set(row.message_type, [...(byType.get(row.message_type) ?? []), row]);
  return byType;
}

export async function enabledTemplatesOf(database: Database, messageType: number): Promise<Template[]> {
  return database.query<Template>('SELECT id, message_type, title, message FROM push_messages WHERE enabled AND message_type = $1 ORDER BY id', [messageType]);
}

/** The template the client got last for this type (rotation), or null. */
export async function previousTemplate(database: Database, clientId: number, messageType: number): Promise<number | null> {
  const [row] = await database.query<{ push_message_id: number | null }>(
    `SELECT push_message_id FROM automated_pushes WHERE client_id = $1 AND message_type = $2 AND status = 'sent'
     ORDER BY finished_at DESC, id DESC LIMIT 1`,
    [clientId, messageType],
  );
  return row?.push_message_id ?? null;
}

export function placeholderValues(client: { first_name: string | null; last_name: string | null }, context: Record<string, unknown>): PlaceholderValues {
  const value = (key: string) => {
    const raw = context[key];
    return typeof raw === 'string' || typeof raw === 'number' ? raw : null;
  };
  return {
    first_name: client.first_name,
    last_name: client.last_name,
    class_name: value('class_name'),
    class_count: value('class_count'),
    days_absent: value('days_absent'),
  };
}

export const isMilestone = (settings: AutomationTypeSettings, context: Record<string, unknown>) => settings.milestones.includes(Number(context.class_count));
