import type { AutomationCountsResponse, AutomationPreviewResponse, ClientAutomatedPushesResponse } from '@contract/automation';
import { fillPlaceholders } from '@contract/placeholders';
import type { Database } from '../db/client';
import { enabledTemplates, isMilestone, LOOKBACK_MS, placeholderValues, previousTemplate } from './engine';
import { chooseTemplate } from './rules';
import { automationStartedAt, loadTypeSettings } from './settings';
import { candidateQuery, previewWindow } from './triggers';

const DAY = 24 * 60 * 60_000;
const SAMPLE_SIZE = 5;
const isoOf = (value: string | Date) => new Date(value).toISOString();

/**
 * Who the next run would message: the trigger's own query over the preview window, less events
 * already planned, opted-out clients and clients without a device token.
 */
export async function automationPreview(database: Database, messageType: number, now: Date, timeZone: string): Promise<AutomationPreviewResponse> {
  const settings = await loadTypeSettings(database, messageType);
  const started = await automationStartedAt(database, now);
  const lookback = new Date(Math.max(started.getTime(), now.getTime() - LOOKBACK_MS));
  const window = previewWindow(messageType, settings, now, lookback, timeZone);
  const templates = (await enabledTemplates(database)).get(messageType) ?? [];
  const blocked = !settings.active ? 'paused' : templates.length === 0 ? 'no_template' : null;
  const query = candidateQuery(messageType, settings, window, timeZone);
  const base = { from: window.from.toISOString(), to: window.to.toISOString(), blocked };
  if (!query) return { ...base, count: 0, sample: [] };
  const n = query.params.length;
  const eligible = `SELECT c.*, cl.first_name, cl.last_name FROM (${query.sql}) c
    JOIN clients cl ON cl.id = c.client_id AND NOT cl.automated_messages_opt_out
    WHERE NOT EXISTS (SELECT 1 FROM automated_pushes p WHERE p.message_type = $${n + 1} AND p.client_id = c.client_id AND p.event_key = c.event_key)
      AND EXISTS (SELECT 1 FROM debug_records d WHERE d.client_id = c.client_id AND d.used_for_push
                  AND COALESCE(NULLIF(d.firebase_token_new, ''), NULLIF(d.firebase_token_current, '')) IS NOT NULL)`;
  const params = [...query.params, messageType];
  const [counted] = await database.query<{ count: number }>(`SELECT count(*)::int AS count FROM (${eligible}) e`, params);
  const rows = await database.query<{
    client_id: number;
    first_name: string | null;
    last_name: string | null;
    planned_for: string | Date;
    context: Record<string, unknown>;
  }>(`SELECT * FROM (${eligible}) e ORDER BY e.planned_for, e.client_id LIMIT ${SAMPLE_SIZE}`, params);
  const sample = [];
  for (const row of rows) {
    const template = chooseTemplate(templates, await previousTemplate(database, Number(row.client_id), messageType), {
      messageType,
      milestone: isMilestone(settings, row.context),
    });
    const values = placeholderValues(row, row.context);
    sample.push({
      client_id: Number(row.client_id),
      first_name: row.first_name,
      last_name: row.last_name,
      push_message_id: template?.id ?? null,
      title: template ? fillPlaceholders(template.title, values) : '',
      message: template ? fillPlaceholders(template.message, values) : '',
      due_at: isoOf(row.planned_for),
    });
  }
  return { ...base, count: counted?.count ?? 0, sample };
}

/** Per template over the last 30 days: sent, failed and skipped by reason. */
export async function automationCounts(database: Database, messageType: number, now: Date): Promise<AutomationCountsResponse> {
  const since = new Date(now.getTime() - 30 * DAY);
  const rows = await database.query<{ push_message_id: number | null; status: string; skip_reason: string | null; count: number }>(
    `SELECT push_message_id, status, skip_reason, count(*)::int AS count FROM automated_pushes
     WHERE message_type = $1 AND finished_at >= $2 AND status IN ('sent', 'skipped', 'failed')
     GROUP BY push_message_id, status, skip_reason`,
    [messageType, since.toISOString()],
  );
  const templates = await database.query<{ id: number; title: string; message: string }>(
    'SELECT id, title, message FROM push_messages WHERE message_type = $1 ORDER BY id',
    [messageType],
  );
  const empty = () => ({ sent: 0, failed: 0, skipped: {} as Record<string, number> });
  const byTemplate = new Map(templates.map((t) => [t.id, { push_message_id: t.id, title: t.title, message: t.message, ...empty() }]));
  const without = empty();
  const total = empty();
  for (const row of rows) {
    const target = (row.push_message_id !== null && byTemplate.get(row.push_message_id)) || without;
    for (const counts of [target, total]) {
      if (row.status === 'sent') counts.sent += row.count;
      else if (row.status === 'failed') counts.failed += row.count;
      else counts.skipped[row.skip_reason ?? 'unknown'] = (counts.skipped[row.skip_reason ?? 'unknown'] ?? 0) + row.count;
    }
  }
  const [pending] = await database.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM automated_pushes WHERE message_type = $1 AND status IN ('pending', 'sending')`,
    [messageType],
  );
  return { since: since.toISOString(), templates: [...byTemplate.values()], without_template: without, total, pending: pending?.count ?? 0 };
}

export async function clientAutomatedPushes(database: Database, clientId: number): Promise<ClientAutomatedPushesResponse | undefined> {
  const [client] = await database.query<{ opted_out: boolean }>('SELECT automated_messages_opt_out AS opted_out FROM clients WHERE id = $1', [clientId]);
  if (!client) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a raw row, mapped field by field below
  const rows = await database.query<Record<string, any>>(
    `SELECT p.id, p.message_type, t.title AS msg_type_title, p.status, p.skip_reason, p.title, p.body, p.planned_for, p.finished_at, p.last_error
     FROM automated_pushes p JOIN message_types t ON t.id = p.message_type
     WHERE p.client_id = $1 ORDER BY p.planned_for DESC, p.id DESC LIMIT 100`,
    [clientId],
  );
  return {
    opted_out: client.opted_out,
    pushes: rows.map((row) => ({
      id: Number(row.id),
      message_type: row.message_type,
      msg_type_title: row.msg_type_title,
      status: row.status,
      skip_reason: row.skip_reason,
      title: row.title,
      message: row.body,
      planned_for: isoOf(row.planned_for),
      sent_at: row.status === 'sent' && row.finished_at ? isoOf(row.finished_at) : null,
      last_error: row.last_error,
    })),
  };
}
