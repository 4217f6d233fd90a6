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
} from '@contract/automation';
import { errorResponses } from '@contract/common';
import { LOOKBACK_MS } from '../automation/planning';
import { automationCounts, automationPreview } from '../automation/reports';
import {
  automationSettingsView,
  requireClientAutomatedPushes,
  sendAutomationTest,
  setClientOptOut,
  setStaffDeviceToken,
  updateAutomationSettings,
} from '../automation/queries';
import { auditActor } from '../audit/record';

const tags = ['automated messages'];
const base = '/api/admin/v1/automated-messages';

/** Automated messages (docs/automation.md): trigger settings, preview, counts and test sends per message type. */
const automationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${base}/:typeId/settings`,
    {
      config: { permission: 'messaging.edit' },
      schema: {
        tags,
        summary: 'Trigger settings of one message type, the shared quiet hours and daily cap',
        params: AutomationTypeParams,
        response: { 200: AutomationSettingsResponse, ...errorResponses },
      },
    },
    async (request) => automationSettingsView(app, request.params.typeId, request.staff?.id),
  );

  app.put(
    `${base}/:typeId/settings`,
    {
      config: { permission: 'messaging.edit' },
      schema: {
        tags,
        summary: 'Change trigger settings (only the fields sent); `global` changes quiet hours and the daily cap for every type',
        params: AutomationTypeParams,
        body: UpdateAutomationSettingsRequest,
        response: { 200: AutomationSettingsResponse, ...errorResponses },
      },
    },
    async (request) => {
      await updateAutomationSettings(app.database, request.params.typeId, request.body, auditActor(request));
      request.log.info({ messageType: request.params.typeId, staff: request.staff?.id, change: request.body }, 'automated message settings changed');
      return automationSettingsView(app, request.params.typeId, request.staff?.id);
    },
  );

  app.get(
    `${base}/:typeId/preview`,
    {
      config: { permission: 'messaging.edit' },
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
    {
      config: { permission: 'messaging.edit' },
      schema: {
        tags,
        summary: 'Per template, the last 30 days: sent, failed, skipped by reason',
        params: AutomationTypeParams,
        response: { 200: AutomationCountsResponse, ...errorResponses },
      },
    },
    async (request) => automationCounts(app.database, request.params.typeId, app.clock.now()),
  );

  app.post(
    `${base}/:typeId/test`,
    {
      config: { permission: 'messaging.edit' },
      schema: {
        tags,
        summary: "Send one template of the type to the signed-in staff member's own device token",
        params: AutomationTypeParams,
        body: SendTestRequest,
        response: { 200: SendTestResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { templateId, ...answer } = await sendAutomationTest(app, request.params.typeId, request.body, request.staff?.id);
      request.log.info(
        { messageType: request.params.typeId, template: templateId, staff: request.staff?.id, outcome: answer.status },
        'automated message test sent',
      );
      return answer;
    },
  );

  app.put(
    `${base}/device-token`,
    {
      config: { permission: 'messaging.edit' },
      schema: {
        tags,
        summary: "Store (or clear with null) the signed-in staff member's own device token for test sends",
        body: DeviceTokenRequest,
        response: { 200: DeviceTokenResponse, ...errorResponses },
      },
    },
    async (request) => setStaffDeviceToken(app.database, request.staff?.id, request.body.device_token),
  );

  app.get(
    '/api/admin/v1/clients/:id/automated-messages',
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: 'The automated pushes of one client, newest first, and whether they opted out',
        params: ClientIdParams,
        response: { 200: ClientAutomatedPushesResponse, ...errorResponses },
      },
    },
    async (request) => requireClientAutomatedPushes(app.database, request.params.id),
  );

  app.put(
    '/api/admin/v1/clients/:id/automated-messages',
    {
      config: { permission: 'messaging.edit' },
      schema: {
        tags,
        summary: 'Opt a client out of (or back into) automated messages',
        params: ClientIdParams,
        body: ClientOptOutRequest,
        response: { 200: ClientAutomatedPushesResponse, ...errorResponses },
      },
    },
    async (request) => {
      const answer = await setClientOptOut(app.database, request.params.id, request.body.opted_out, auditActor(request));
      request.log.info({ client: request.params.id, optedOut: request.body.opted_out, staff: request.staff?.id }, 'automated messages opt-out changed');
      return answer;
    },
  );
};

export default automationRoutes;
