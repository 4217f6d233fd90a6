import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AutomationCountsResponse,
  AutomationPreviewResponse,
  AutomationSettingsResponse,
  AutomationTypeParams,
  ClientAutomatedPushesResponse,
  ClientIdParams,
  ClientOptOutRequest,
  DeviceTokenRequest,
  DeviceTokenResponse,
  SendTestRequest,
  SendTestResponse,
  UpdateAutomationSettingsRequest,
} from '../../../contract/automation';
import { errorResponses } from '../../../contract/common';
import { fillPlaceholders } from '../../../contract/placeholders';
import { AUTOMATION_TICK } from '../automation';
import { enabledTemplates, LOOKBACK_MS } from '../automation/engine';
import { automationCounts, automationPreview, clientAutomatedPushes } from '../automation/reports';
import { nextWeekly } from '../automation/rules';
import { loadGlobalSettings, loadTypeSettings, saveSettings } from '../automation/settings';
import { badRequest, notFound } from '../lib/errors';

const tags = ['automated messages'];
const base = '/api/admin/v1/automated-messages';

/** Automated messages (issue 12): trigger settings, preview, counts and test sends per message type. */
const automationRoutes: FastifyPluginAsyncZod = async (app) => {
  async function settingsResponse(typeId: number, staffId: number | undefined) {
    const settings = await loadTypeSettings(app.database, typeId);
    const now = app.clock.now();
    const zone = app.config.STUDIO_TIME_ZONE;
    const minutes = app.config.AUTOMATED_MESSAGES_INTERVAL_MINUTES;
    const weekly = typeId === 3 || typeId === 4;
    let nextRun: Date | null = null;
    if (settings.active && weekly) nextRun = nextWeekly(now, settings.weekday, settings.send_time, zone);
    else if (settings.active && minutes > 0) {
      // The shared schedule's next run (whichever instance takes it).
      const [schedule] = await app.database.query<{ next_run_at: string | Date }>('SELECT next_run_at FROM job_schedules WHERE name = $1', [AUTOMATION_TICK]);
      nextRun = schedule ? new Date(Math.max(new Date(schedule.next_run_at).getTime(), now.getTime())) : null;
    }
    const [staff] = staffId === undefined ? [] : await app.database.query<{ device_token: string | null }>('SELECT device_token FROM staff_users WHERE id = $1', [staffId]);
    return {
      message_type: typeId,
      settings,
      global: await loadGlobalSettings(app.database),
      time_zone: zone,
      next_run_at: nextRun?.toISOString() ?? null,
      staff_device_token: staff?.device_token ?? null,
    };
  }

  app.get(
    `${base}/:typeId/settings`,
    { schema: { tags, summary: 'Trigger settings of one message type, the shared quiet hours and daily cap', params: AutomationTypeParams, response: { 200: AutomationSettingsResponse, ...errorResponses } } },
    async (request) => settingsResponse(request.params.typeId, request.staff?.id),
  );

  app.put(
    `${base}/:typeId/settings`,
    {
      schema: {
        tags,
        summary: 'Change trigger settings (only the fields sent); `global` changes quiet hours and the daily cap for every type',
        params: AutomationTypeParams,
        body: UpdateAutomationSettingsRequest,
        response: { 200: AutomationSettingsResponse, ...errorResponses },
      },
    },
    async (request) => {
      await saveSettings(app.database, request.params.typeId, request.body, app.clock.now(), request.staff?.email ?? null);
      request.log.info({ messageType: request.params.typeId, staff: request.staff?.email, change: request.body }, 'automated message settings changed');
      return settingsResponse(request.params.typeId, request.staff?.id);
    },
  );

  app.get(
    `${base}/:typeId/preview`,
    {
      schema: {
        tags,
        summary: 'Who the next run would message: count and a sample with the filled-in text',
        description: `Weekly types: their next weekly moment. Event types: events not sent yet from the last ${LOOKBACK_MS / 3_600_000} hours to the next 24.`,
        params: AutomationTypeParams,
        response: { 200: AutomationPreviewResponse, ...errorResponses },
      },
    },
    async (request) => automationPreview(app.database, request.params.typeId, app.clock.now(), app.config.STUDIO_TIME_ZONE),
  );

  app.get(
    `${base}/:typeId/counts`,
    { schema: { tags, summary: 'Per template, the last 30 days: sent, failed, skipped by reason', params: AutomationTypeParams, response: { 200: AutomationCountsResponse, ...errorResponses } } },
    async (request) => automationCounts(app.database, request.params.typeId, app.clock.now()),
  );

  app.post(
    `${base}/:typeId/test`,
    {
      schema: {
        tags,
        summary: "Send one template of the type to the signed-in staff member's own device token",
        params: AutomationTypeParams,
        body: SendTestRequest,
        response: { 200: SendTestResponse, ...errorResponses },
      },
    },
    async (request) => {
      const typeId = request.params.typeId;
      const [staff] = await app.database.query<{ device_token: string | null; nickname: string }>('SELECT device_token, nickname FROM staff_users WHERE id = $1', [request.staff?.id ?? 0]);
      if (!staff?.device_token) throw badRequest('Set your device token first (Automated sending, "Your device token"), then send a test.');
      let template: { id: number; title: string; message: string } | undefined;
      if (request.body.push_message_id !== undefined) {
        [template] = await app.database.query('SELECT id, title, message FROM push_messages WHERE id = $1 AND message_type = $2', [request.body.push_message_id, typeId]);
        if (!template) throw notFound(`Push message ${request.body.push_message_id} is not a template of this message type.`);
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
      request.log.info({ messageType: typeId, template: template.id, staff: request.staff?.email, outcome: outcome.status }, 'automated message test sent');
      return {
        status: outcome.status === 'sent' ? ('sent' as const) : ('failed' as const),
        title,
        message,
        error: outcome.status === 'failed' ? outcome.error : outcome.status === 'no_token' ? 'The device token was not accepted.' : null,
      };
    },
  );

  app.put(
    `${base}/device-token`,
    { schema: { tags, summary: "Store (or clear with null) the signed-in staff member's own device token for test sends", body: DeviceTokenRequest, response: { 200: DeviceTokenResponse, ...errorResponses } } },
    async (request) => {
      const token = request.body.device_token === '' ? null : request.body.device_token;
      await app.database.query('UPDATE staff_users SET device_token = $1 WHERE id = $2', [token, request.staff?.id ?? 0]);
      return { staff_device_token: token };
    },
  );

  app.get(
    '/api/admin/v1/clients/:id/automated-messages',
    { schema: { tags, summary: 'The automated pushes of one client, newest first, and whether they opted out', params: ClientIdParams, response: { 200: ClientAutomatedPushesResponse, ...errorResponses } } },
    async (request) => {
      const found = await clientAutomatedPushes(app.database, request.params.id);
      if (!found) throw notFound(`Client ${request.params.id} does not exist.`);
      return found;
    },
  );

  app.put(
    '/api/admin/v1/clients/:id/automated-messages',
    {
      schema: {
        tags,
        summary: 'Opt a client out of (or back into) automated messages',
        params: ClientIdParams,
        body: ClientOptOutRequest,
        response: { 200: ClientAutomatedPushesResponse, ...errorResponses },
      },
    },
    async (request) => {
      const updated = await app.database.query('UPDATE clients SET automated_messages_opt_out = $1 WHERE id = $2 RETURNING id', [request.body.opted_out, request.params.id]);
      if (updated.length === 0) throw notFound(`Client ${request.params.id} does not exist.`);
      request.log.info({ client: request.params.id, optedOut: request.body.opted_out, staff: request.staff?.email }, 'automated messages opt-out changed');
      return (await clientAutomatedPushes(app.database, request.params.id))!;
    },
  );
};

export default automationRoutes;
