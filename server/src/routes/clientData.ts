import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClientIdParams } from '@contract/automation';
import {
  ClientLooksResponse,
  DataRequest,
  DataRequestsQuery,
  EraseBody,
  Erasure,
  ErasureStatus,
  ExportQuery,
  ListLooksBody,
  NewDataRequest,
  RetentionSettings,
} from '@contract/clientData';
import { errorResponses } from '@contract/common';
import { contentRange, IdParams } from '@contract/raSimpleRest';
import { auditActor, recordAudit } from '../audit/record';
import { eraseClient, erasureStatus, requireLiveClient } from '../clientData/erase';
import { exportJson, exportZip } from '../clientData/export';
import { looksOf, recordLooks } from '../clientData/looks';
import { handleRequestOf, listRequests, logRequest, markHandled } from '../clientData/requests';
import { retentionSettings, saveRetention } from '../clientData/retention';

const ADMIN = '/api/admin/v1';
const tags = ['client data rights (extension)'];

/** A client's data on request: export, erasure, the requests, retention, who looked. */
const clientDataRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${ADMIN}/clients/:id/export`,
    {
      // It writes (the audit entry, the access request answered): only from the console's own script.
      config: { permission: 'clients.erase', changesState: true },
      schema: {
        tags,
        summary: 'Everything held about one client, streamed: one JSON file, or a zip of one CSV per section',
        description:
          'Device tokens are shown redacted. 404 for an unknown client, 410 for an erased one. Recorded in the audit log and as a handled access request.',
        params: ClientIdParams,
        querystring: ExportQuery,
        response: { 200: z.string(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const clientId = request.params.id;
      const actor = auditActor(request);
      await app.database.transaction(async (tx) => {
        await requireLiveClient(tx, clientId);
        await recordAudit(tx, {
          ...actor,
          action: 'client.export',
          target_type: 'client',
          target_id: clientId,
          client_id: clientId,
          after: { format: request.query.format },
        });
        await handleRequestOf(tx, { kind: 'access', clientId, by: actor.staff?.email ?? null, at: actor.at });
        if (request.staff) await recordLooks(tx, request.staff, [clientId], 'export', actor.at);
      });
      const day = actor.at.toISOString().slice(0, 10);
      // Streams: Fastify sends them as they are read (no serializer), so typed as the schema's string.
      const send = (stream: Readable) => reply.send(stream as unknown as string);
      reply.header('cache-control', 'no-store');
      if (request.query.format === 'zip') {
        reply.header('content-disposition', `attachment; filename="client-${clientId}-data-${day}.zip"`);
        reply.type('application/zip');
        return send(exportZip(app.database, clientId));
      }
      reply.header('content-disposition', `attachment; filename="client-${clientId}-data-${day}.json"`);
      reply.type('application/json; charset=utf-8');
      return send(Readable.from(exportJson(app.database, clientId, actor.at)));
    },
  );

  app.post(
    `${ADMIN}/clients/:id/erase`,
    {
      config: { permission: 'clients.erase', reauth: true },
      schema: {
        tags,
        summary: 'Erases a client: personal fields, devices, notes, views… in one transaction; Algolia and RevenueCat told by a resumable job',
        description:
          "confirm_email is the client's e-mail typed again (for a client without one: '#<id>'). 404 unknown client, 409 already erased or an import or a broadcast to them running, 422 wrong confirmation.",
        params: ClientIdParams,
        body: EraseBody,
        response: { 200: Erasure, ...errorResponses },
      },
    },
    async (request) => eraseClient(app, request.params.id, request.body, auditActor(request)),
  );

  app.get(
    `${ADMIN}/clients/:id/erasure`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: 'Whether the client was erased, by whom, why, and what the outside services answered',
        params: ClientIdParams,
        response: { 200: ErasureStatus, ...errorResponses },
      },
    },
    async (request) => ({ erasure: await erasureStatus(app.database, request.params.id) }),
  );

  app.get(
    `${ADMIN}/clients/:id/looks`,
    {
      config: { permission: 'clients.looks' },
      schema: {
        tags,
        summary: "Who looked at the client's data, once per staff member and hour, newest first",
        params: ClientIdParams,
        response: { 200: ClientLooksResponse, ...errorResponses },
      },
    },
    async (request) => ({ looks: await looksOf(app.database, request.params.id) }),
  );

  app.post(
    `${ADMIN}/client-looks`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: 'Records that the caller exported a list of these clients (once per client and hour)',
        body: ListLooksBody,
        response: { 200: z.object({ recorded: z.literal(true) }), ...errorResponses },
      },
    },
    async (request) => {
      if (request.staff) await recordLooks(app.database, request.staff, request.body.client_ids, 'list_export', app.clock.now());
      return { recorded: true as const };
    },
  );

  app.get(
    `${ADMIN}/data-requests`,
    {
      config: { permission: 'clients.erase' },
      schema: {
        tags,
        summary: 'Access and erasure requests: open ones first, the soonest due first',
        querystring: DataRequestsQuery,
        response: { 200: z.array(DataRequest), ...errorResponses },
      },
    },
    async (request, reply) => {
      const rows = await listRequests(app.database, { openOnly: request.query.open === 'true' }, app.clock.now());
      reply.header('cache-control', 'no-store');
      reply.header('content-range', contentRange('data-requests', 0, rows.length, rows.length));
      return rows;
    },
  );

  app.post(
    `${ADMIN}/data-requests`,
    {
      config: { permission: 'clients.erase' },
      schema: { tags, summary: 'Logs a request as received (due one month later)', body: NewDataRequest, response: { 200: DataRequest, ...errorResponses } },
    },
    async (request) => app.database.transaction((tx) => logRequest(tx, request.body, auditActor(request))),
  );

  app.post(
    `${ADMIN}/data-requests/:id/handled`,
    {
      config: { permission: 'clients.erase' },
      schema: {
        tags,
        summary: 'Marks a request handled (by the caller, now); a handled one stays as it was',
        params: IdParams,
        response: { 200: DataRequest, ...errorResponses },
      },
    },
    async (request) => app.database.transaction((tx) => markHandled(tx, request.params.id, auditActor(request))),
  );

  app.get(
    `${ADMIN}/retention`,
    {
      config: { permission: 'clients.erase' },
      schema: { tags, summary: 'How many days each kind of data is kept', response: { 200: RetentionSettings, ...errorResponses } },
    },
    async () => retentionSettings(app.database, app.config.JOB_RETENTION_DAYS),
  );

  app.put(
    `${ADMIN}/retention`,
    {
      config: { permission: 'clients.erase' },
      schema: {
        tags,
        summary: 'Changes how many days each kind of data is kept (the daily job applies it)',
        body: RetentionSettings,
        response: { 200: RetentionSettings, ...errorResponses },
      },
    },
    async (request) => saveRetention(app.database, request.body, app.config.JOB_RETENTION_DAYS, auditActor(request)),
  );
};

export default clientDataRoutes;
