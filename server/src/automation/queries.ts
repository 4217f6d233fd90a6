import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { timestamp } from '../db/rows';
import type {
  AutomationSettingsResponse,
  ClientAutomatedPushesResponse,
  SendTestRequest,
  SendTestResponse,
  UpdateAutomationSettingsRequest,
} from '@contract/automation';
import { isWeeklyType } from '@contract/messageTypes';
import { fillPlaceholders } from '@contract/placeholders';
import { changedFields, recordAudit, type Actor } from '../audit/record';
import type { Database } from '../db/client';
import { badRequest, notFound } from '../lib/errors';
import { AUTOMATION_TICK } from './index';
import { clientAutomatedPushes } from './reports';
import { lockClientOptOut, setClientOptOutFlag, templateOf } from './reportQueries';
import { nextWeekly } from './rules';
import { loadGlobalSettings, loadTypeSettings, saveSettings } from './settings';
import { enabledTemplates } from './templates';

/** What the automated-messages routes ask of the area: the app's database, clock, settings and sender. */
type App = Pick<FastifyInstance, 'database' | 'clock' | 'config' | 'automation'>;

const ScheduleRow = z.object({ next_run_at: timestamp });
const StaffTokenRow = z.object({ device_token: z.string().nullable(), nickname: z.string() });

/** One type's settings as the console shows them, with when the next run that can send it is due. */
export async function automationSettingsView(app: App, typeId: number, staffId: number | undefined): Promise<AutomationSettingsResponse> {
  const settings = await loadTypeSettings(app.database, typeId);
  const now = app.clock.now();
  const zone = app.config.STUDIO_TIME_ZONE;
  let nextRun: Date | null = null;
  if (settings.active && isWeeklyType(typeId)) nextRun = nextWeekly(now, settings.weekday, settings.send_time, zone);
  else if (settings.active && app.config.AUTOMATED_MESSAGES_INTERVAL_MINUTES > 0) {
    // The shared schedule's next run (whichever instance takes it).
    const [schedule] = await app.database.rows(ScheduleRow, 'SELECT next_run_at FROM job_schedules WHERE name = $1', [AUTOMATION_TICK]);
    nextRun = schedule ? new Date(Math.max(schedule.next_run_at.getTime(), now.getTime())) : null;
  }
  return {
    message_type: typeId,
    settings,
    global: await loadGlobalSettings(app.database),
    time_zone: zone,
    next_run_at: nextRun?.toISOString() ?? null,
    staff_device_token: (await staffDeviceToken(app.database, staffId))?.device_token ?? null,
  };
}

/** Saves the fields sent (and `global`) with one audit entry of what changed; a save that changed nothing is not logged. */
export async function updateAutomationSettings(database: Database, typeId: number, change: UpdateAutomationSettingsRequest, actor: Actor): Promise<void> {
  await database.transaction(async (tx) => {
    const snapshot = async () => ({
      ...(await loadTypeSettings(tx, typeId)),
      ...Object.fromEntries(Object.entries(await loadGlobalSettings(tx)).map(([key, value]) => [`global.${key}`, value])),
    });
    const before = await snapshot();
    await saveSettings(tx, typeId, change, actor.at, actor.staff?.email ?? null);
    const changed = changedFields(before, await snapshot());
    if (Object.keys(changed.after ?? {}).length === 0) return;
    await recordAudit(tx, { ...actor, action: 'automated_message.update', target_type: 'message_type', target_id: typeId, ...changed });
  });
}

async function staffDeviceToken(database: Database, staffId: number | undefined) {
  if (staffId === undefined) return undefined;
  const [staff] = await database.rows(StaffTokenRow, 'SELECT device_token, nickname FROM staff_users WHERE id = $1', [staffId]);
  return staff;
}

/** 'Send test to me': one template of the type (the chosen one, else the first enabled), filled with sample values, to the staff member's own device token. */
export async function sendAutomationTest(
  app: App,
  typeId: number,
  request: z.infer<typeof SendTestRequest>,
  staffId: number | undefined,
): Promise<SendTestResponse & { templateId: number }> {
  const staff = await staffDeviceToken(app.database, staffId);
  if (!staff?.device_token) throw badRequest('Set your device token first (Automated sending, "Your device token"), then send a test.');
  let template: { id: number; title: string; message: string } | undefined;
  if (request.push_message_id !== undefined) {
    template = await templateOf(app.database, request.push_message_id, typeId);
    if (!template) throw notFound(`Push message ${request.push_message_id} is not a template of this message type.`);
  } else {
    template = (await enabledTemplates(app.database)).get(typeId)?.[0];
    if (!template) throw badRequest('This message type has no enabled template to test.');
  }
  const values = { first_name: staff.nickname.split(/\s+/)[0], class_name: 'Morning Flow', class_count: 10, days_absent: 14 };
  const title = fillPlaceholders(template.title, values);
  const message = fillPlaceholders(template.message, values);
  const outcome = await app.automation.sender
    .sendToToken({ token: staff.device_token, title, body: message, data: { kind: 'automated-test', message_type: String(typeId) } })
    .catch((error: unknown) => ({ status: 'failed' as const, error: error instanceof Error ? error.message : String(error), retryable: false }));
  return {
    templateId: template.id,
    status: outcome.status === 'sent' ? 'sent' : 'failed',
    title,
    message,
    error: outcome.status === 'failed' ? outcome.error : outcome.status === 'no_token' ? 'The device token was not accepted.' : null,
  };
}

/** Stores (or clears, with null or '') the staff member's own device token for test sends. */
export async function setStaffDeviceToken(
  database: Database,
  staffId: number | undefined,
  token: string | null,
): Promise<{ staff_device_token: string | null }> {
  const stored = token === '' ? null : token;
  await database.execute('UPDATE staff_users SET device_token = $1 WHERE id = $2', [stored, staffId ?? 0]);
  return { staff_device_token: stored };
}

/** Opts a client out of (or back into) automated messages, audited when it changes; 404 for no such client. */
export async function setClientOptOut(database: Database, clientId: number, optedOut: boolean, actor: Actor): Promise<ClientAutomatedPushesResponse> {
  const found = await database.transaction(async (tx) => {
    const before = await lockClientOptOut(tx, clientId);
    if (before === undefined) return false;
    if (before === optedOut) return true;
    await setClientOptOutFlag(tx, clientId, optedOut);
    await recordAudit(tx, {
      ...actor,
      action: 'client.automated_opt_out',
      target_type: 'client',
      target_id: clientId,
      client_id: clientId,
      before: { automated_messages_opt_out: before },
      after: { automated_messages_opt_out: optedOut },
    });
    return true;
  });
  if (!found) throw notFound(`Client ${clientId} does not exist.`);
  return (await clientAutomatedPushes(database, clientId))!;
}

/** The automated pushes of one client and whether they opted out; 404 for no such client. */
export async function requireClientAutomatedPushes(database: Database, clientId: number): Promise<ClientAutomatedPushesResponse> {
  const found = await clientAutomatedPushes(database, clientId);
  if (!found) throw notFound(`Client ${clientId} does not exist.`);
  return found;
}
