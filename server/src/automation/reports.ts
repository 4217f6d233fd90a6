import type { AutomationCountsResponse, AutomationTypeSettings, AutomationPreviewResponse, ClientAutomatedPushesResponse } from '@contract/automation';
import { fillPlaceholders } from '@contract/placeholders';
import type { Database } from '../db/client';
import { enabledTemplates, isMilestone, LOOKBACK_MS, placeholderValues, previousTemplate } from './engine';
import { chooseTemplate, nextWeekly } from './rules';
import { automationStartedAt, loadTypeSettings } from './settings';
import { isWeeklyType } from '@contract/messageTypes';
import { clientOptedOut, clientPushes, eligibleCandidates, outcomeCounts, pendingCount, templatesOf } from './reportQueries';
import { candidateQuery } from './triggerQueries';

const DAY = 24 * 60 * 60_000;
const SAMPLE_SIZE = 5;
const isoOf = (value: string | Date) => new Date(value).toISOString();

/** The window the console's preview shows: the next weekly moment, or the next 24 hours of events. */
export function previewWindow(messageType: number, settings: AutomationTypeSettings, now: Date, lookbackFrom: Date, timeZone: string) {
  if (isWeeklyType(messageType)) {
    const moment = nextWeekly(now, settings.weekday, settings.send_time, timeZone);
    return { from: new Date(moment.getTime() - 1), to: moment, moment };
  }
  return { from: lookbackFrom, to: new Date(now.getTime() + DAY), moment: null };
}

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
  const { count, sample: rows } = await eligibleCandidates(database, query, messageType, SAMPLE_SIZE);
  const sample = [];
  for (const row of rows) {
    const template = chooseTemplate(templates, await previousTemplate(database, row.client_id, messageType), {
      messageType,
      milestone: isMilestone(settings, row.context),
    });
    const values = placeholderValues(row, row.context);
    sample.push({
      client_id: row.client_id,
      first_name: row.first_name,
      last_name: row.last_name,
      push_message_id: template?.id ?? null,
      title: template ? fillPlaceholders(template.title, values) : '',
      message: template ? fillPlaceholders(template.message, values) : '',
      due_at: isoOf(row.planned_for),
    });
  }
  return { ...base, count, sample };
}

/** Per template over the last 30 days: sent, failed and skipped by reason. */
export async function automationCounts(database: Database, messageType: number, now: Date): Promise<AutomationCountsResponse> {
  const since = new Date(now.getTime() - 30 * DAY);
  const rows = await outcomeCounts(database, messageType, since);
  const templates = await templatesOf(database, messageType);
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
  const pending = await pendingCount(database, messageType);
  return { since: since.toISOString(), templates: [...byTemplate.values()], without_template: without, total, pending };
}

export async function clientAutomatedPushes(database: Database, clientId: number): Promise<ClientAutomatedPushesResponse | undefined> {
  const optedOut = await clientOptedOut(database, clientId);
  if (optedOut === undefined) return undefined;
  const rows = await clientPushes(database, clientId);
  return {
    opted_out: optedOut,
    pushes: rows.map((row) => ({
      id: row.id,
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
