import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ContractSyncParams,
  ContractSyncResponse,
  FavoritesUpdateBody,
  FavoritesUpdateResponse,
  PushNotificationBody,
  PushNotificationHeaders,
  PushNotificationResponse,
  PushRecord,
  UpdateAccessLevelBody,
  UpdateAccessLevelResponse,
} from '@contract/clientActions';
import { errorResponses } from '@contract/common';
import { Id } from '@contract/ids';
import { contentRange, jsonParam, rangeParam } from '@contract/raSimpleRest';
import { grantAccessLevel, pushToClient, syncClientContracts, updateFavorite } from '../clients/actions';
import { CONTRACT_SYNC_DEADLINE_MS } from '../clients/contractSync';
import { listPushes } from '../push/queries';
import { auditActor } from '../audit/record';

/** The four things staff do to one client (the spec's modals and calls), and the record of pushes. */
const clientActionRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/api/client/v1/client-details';
  const tags = ['client actions'];

  app.post(
    `${base}/favorites-videos-update`,
    {
      config: { permission: 'clients.override' },
      schema: {
        tags,
        summary: "Add a video to, or remove it from, the client's favorites",
        description:
          'The client is found by email_address (case-insensitive), else by mb_client_id. Adding twice keeps one favorite; removing one ' +
          'that is not there is no error. An unknown client or video answers an `errors` entry and changes nothing. Malformed bodies: 400.',
        body: FavoritesUpdateBody,
        response: { 200: FavoritesUpdateResponse, ...errorResponses },
      },
    },
    async (request) => updateFavorite(app.database, request.body, auditActor(request)),
  );

  app.post(
    `${base}/update-access-level`,
    {
      config: { permission: 'clients.override' },
      schema: {
        tags,
        summary: 'Give the client another VOD access level until a date; it ends by itself',
        description:
          'Stores the new level, the end of the override and the level it replaced in one transaction, and records the grant (with the ' +
          'staff member) in the override history the subscriber trend counts. When the date passes, a ' +
          'background job puts the client back on the level their purchases give, else the replaced one. adminOverrideDate must be in ' +
          `the future and at most OVERRIDE_MAX_DAYS (${app.config.OVERRIDE_MAX_DAYS}) days ahead. An optional \`reason\` is kept in the audit entry and the ` +
          'override history; the same level as the running override until a later date is recorded as an extension. ' +
          '404: no such client; 400: an unknown level or a date out of range.',
        body: UpdateAccessLevelBody,
        response: { 200: UpdateAccessLevelResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { client_id, new_vod_access_level, adminOverrideDate, reason } = request.body;
      const grant = { clientId: client_id, level: new_vod_access_level, until: new Date(adminOverrideDate), maxDays: app.config.OVERRIDE_MAX_DAYS, reason };
      const answer = await grantAccessLevel(app.database, grant, auditActor(request));
      request.log.info({ client: client_id, level: new_vod_access_level, until: adminOverrideDate, staff: request.staff?.id }, 'access level override granted');
      return answer;
    },
  );

  app.post(
    `${base}/push-notification`,
    {
      config: { permission: 'clients.push' },
      schema: {
        tags,
        summary: "Push a notification to the client's devices (FCM)",
        description:
          "Sent to the device tokens of the client's newest debug records, skipping tokens FCM reported as unregistered. " +
          '`updated` is true when at least one device got it; otherwise `message` says why (no token, FCM refused). Every push is ' +
          'recorded. When FCM asks to wait (QUOTA_EXCEEDED, UNAVAILABLE) the answer comes at once with updated: false, queued: true and ' +
          'the retry time in message; a background job sends it then (at least 1 minute later for QUOTA_EXCEEDED). Send an Idempotency-Key header to make a retried request answer the first outcome instead of pushing twice.',
        headers: PushNotificationHeaders,
        body: PushNotificationBody,
        response: { 200: PushNotificationResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { notification, email_address, mb_client_id } = request.body;
      const push = { email_address, mb_client_id, title: notification.title, body: notification.body, idempotencyKey: request.headers['idempotency-key'] };
      return pushToClient(app, push, auditActor(request));
    },
  );

  app.get(
    '/api/v1/sync/contracts/:siteId/:mbClientId',
    {
      config: { permission: 'clients.push', changesState: true },
      // A HEAD would run the sync too.
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: "Fetch the client's contracts from MindBody and store them",
        description:
          `Calls MindBody (GET /client/clientcontracts, every page) and replaces our stored copy in one transaction. Any MindBody ` +
          `failure (an error answer, 429s or 5xx after retries, no answer within ${CONTRACT_SYNC_DEADLINE_MS / 1000} s) is an \`errors\` ` +
          'entry and the stored copy stays as it was; `mbContracts` is the stored copy either way. 404: no client with that MindBody id at that site.',
        params: ContractSyncParams,
        response: { 200: ContractSyncResponse, ...errorResponses },
      },
    },
    async (request) => {
      const result = await syncClientContracts(app, request.params, auditActor(request));
      if (result.errors.length > 0) request.log.warn({ mbClientId: request.params.mbClientId, errors: result.errors }, 'contract sync failed');
      return result;
    },
  );

  app.get(
    '/api/admin/v1/pushes',
    {
      config: { permission: 'clients.read' },
      schema: {
        tags: ['client actions (extension)'],
        summary: 'Recorded pushes, newest first (ra-data-simple-rest getList)',
        description: 'filter {"client_id":5} gives one client\'s pushes; the total is in Content-Range: pushes 0-9/42.',
        querystring: z.object({
          filter: jsonParam(z.object({ client_id: Id.optional() }), '{"client_id":5}').optional(),
          range: rangeParam.optional(),
          sort: z.string().max(100).optional().describe('Ignored: always newest first'),
        }),
        response: { 200: z.array(PushRecord), ...errorResponses },
      },
    },
    async (request, reply) => {
      const range = request.query.range ?? [0, 9];
      const { rows, total } = await listPushes(app.database, request.query.filter?.client_id ?? null, range);
      reply.header('content-range', contentRange('pushes', range[0], rows.length, total));
      return rows;
    },
  );
};

export default clientActionRoutes;
