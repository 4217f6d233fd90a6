import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Broadcast,
  BroadcastCreated,
  BroadcastListQuery,
  BroadcastParams,
  BulkPushBody,
  CreateBroadcastBody,
  IdempotencyHeaders,
  SendDraftBody,
  UpdateDraftBody,
} from '@contract/broadcasts';
import { errorResponses } from '@contract/common';
import { contentRange } from '@contract/raSimpleRest';
import { auditActor } from '../audit/record';
import { BulkAction, BulkActionParams, BulkOverrideBody } from '@contract/bulkActions';
import { getBulkAction, startBulkOverride } from '../bulk/override';
import { cancelBroadcast, createBroadcast, getBroadcast, listBroadcasts, sendDraft, updateDraft } from '../broadcasts/store';
import { intentOf } from '../lib/idempotency';
import { permissionDeniedMessage, roleAllows } from '@contract/permissions';
import { HttpError } from '../lib/errors';

const ADMIN = '/api/admin/v1';
const tags = ['broadcasts (extension)'];
const optionalDate = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

/**
 * Broadcasts and bulk pushes (docs/automation.md#broadcasts). Sending to a segment is the studio
 * speaking to many clients: 'messaging.edit' (the templates' permission). A bulk push to clients
 * picked on a list (a page at most) is 'clients.push', like a push to one; by a filter ("all
 * matching") it is a broadcast and needs 'messaging.edit' too. Reading results: 'clients.read'.
 * The calls that send take an Idempotency-Key: the same key answers the first result.
 */
const broadcastRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { database: app.database, jobs: app.jobs };

  app.post(
    `${ADMIN}/broadcasts`,
    {
      config: { permission: 'messaging.edit', reauth: true },
      schema: {
        tags,
        summary: 'Push to the clients of a segment or a filter: now, at send_at, or as a draft',
        description:
          'Recipients are fixed when it is sent or scheduled (`recipients`). With `variants` (2-3 versions instead of title and body) each version goes to an equal share of a test part (`test_percent`, after the holdout) and the rest waits; after `pick_winner_after_hours` the best by `winner_metric` (or the first, when none is better beyond the 95 % interval) goes to the rest. the broadcasts.send job sends under quiet hours, the opt-out and the daily cap. 400 when no client matches; 404 for an unknown segment_id. With an Idempotency-Key header the same key answers the same broadcast (200) and sends nothing again; the same key with another request is 409.',
        headers: IdempotencyHeaders,
        body: CreateBroadcastBody,
        response: { 200: BroadcastCreated, ...errorResponses },
      },
    },
    async (request) => {
      const {
        filter,
        segment_id,
        title,
        body,
        send_at,
        draft,
        goal,
        holdout_percent,
        max_per_minute,
        variants,
        test_percent,
        pick_winner_after_hours,
        winner_metric,
      } = request.body;
      return createBroadcast(
        deps,
        {
          kind: 'broadcast',
          title: title ?? '',
          body: body ?? '',
          variants,
          testPercent: test_percent,
          pickWinnerAfterHours: pick_winner_after_hours,
          winnerMetric: winner_metric,
          filter,
          segmentId: segment_id,
          sendAt: optionalDate(send_at),
          draft,
          goal,
          holdoutPercent: holdout_percent,
          maxPerMinute: max_per_minute,
        },
        auditActor(request),
        intentOf('broadcast', request.staff?.id, request.headers['idempotency-key'], request.body),
      );
    },
  );

  app.get(
    `${ADMIN}/broadcasts`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: 'Broadcasts and bulk pushes, newest first, with their counts (ra-data-simple-rest getList)',
        querystring: BroadcastListQuery,
        response: { 200: z.array(Broadcast), ...errorResponses },
      },
    },
    async (request, reply) => {
      const range = request.query.range ?? [0, 24];
      const { rows, total } = await listBroadcasts(app.database, { range, status: request.query.filter?.status, kind: request.query.filter?.kind });
      reply.header('content-range', contentRange('broadcasts', range[0], rows.length, total));
      return rows;
    },
  );

  app.get(
    `${ADMIN}/broadcasts/:id`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: 'One broadcast: status and counts (sent, failed, skipped by reason, pending)',
        params: BroadcastParams,
        response: { 200: Broadcast, ...errorResponses },
      },
    },
    async (request) => getBroadcast(app.database, request.params.id),
  );

  app.put(
    `${ADMIN}/broadcasts/:id`,
    {
      config: { permission: 'messaging.edit' },
      schema: {
        tags,
        summary: "Edit a draft's title and message (ra-data-simple-rest update; 409 when it is not a draft)",
        params: BroadcastParams,
        body: UpdateDraftBody,
        response: { 200: Broadcast, ...errorResponses },
      },
    },
    async (request) => updateDraft(app.database, request.params.id, request.body, auditActor(request)),
  );

  app.post(
    `${ADMIN}/broadcasts/:id/send`,
    {
      config: { permission: 'messaging.edit', reauth: true },
      schema: {
        tags,
        summary: 'Send a draft now or at send_at (409 when it is not a draft)',
        params: BroadcastParams,
        body: SendDraftBody,
        response: { 200: BroadcastCreated, ...errorResponses },
      },
    },
    async (request) => sendDraft(deps, request.params.id, optionalDate(request.body.send_at), auditActor(request)),
  );

  app.post(
    `${ADMIN}/broadcasts/:id/cancel`,
    {
      config: { permission: 'messaging.edit' },
      schema: {
        tags,
        summary: 'Cancel a draft, scheduled or sending broadcast: what is not sent yet stays unsent (409 once over)',
        params: BroadcastParams,
        response: { 200: Broadcast, ...errorResponses },
      },
    },
    async (request) => cancelBroadcast(app.database, request.params.id, auditActor(request)),
  );

  app.post(
    `${ADMIN}/bulk/push`,
    {
      config: { permission: 'clients.push', reauth: true },
      schema: {
        tags,
        summary: "Push to the selected clients, or to every client a list's filter selects, in the background",
        description:
          "Sent as a broadcast of kind bulk_push (GET /broadcasts/{id} shows its progress), with one client.push audit entry per client. By `filter` (all matching) it needs 'messaging.edit' as a broadcast does; `client_ids` (a page at most) needs 'clients.push'. Idempotency-Key: as POST /broadcasts.",
        headers: IdempotencyHeaders,
        body: BulkPushBody,
        response: { 200: BroadcastCreated, ...errorResponses },
      },
    },
    async (request) => {
      const { client_ids, filter, title, body } = request.body;
      const role = request.staff!.role;
      if (filter !== undefined && !roleAllows(role, 'messaging.edit')) throw new HttpError(403, permissionDeniedMessage(role, 'messaging.edit'));
      return createBroadcast(
        deps,
        { kind: 'bulk_push', title, body, filter, clientIds: client_ids },
        auditActor(request),
        intentOf('bulk-push', request.staff?.id, request.headers['idempotency-key'], request.body),
      );
    },
  );

  app.post(
    `${ADMIN}/bulk/override`,
    {
      config: { permission: 'clients.override', reauth: true },
      schema: {
        tags,
        summary: "Grant an access-level override to the selected clients, or to every client a list's filter selects",
        description:
          'The rules of one client (a level, an end at most OVERRIDE_MAX_DAYS ahead); one client.override_grant audit entry per client. Up to 25 clients are granted before the answer (`status: done`), more by a job: follow GET /bulk/override/{id}. Idempotency-Key: the same key answers the same bulk action (200) and grants nothing again.',
        headers: IdempotencyHeaders,
        body: BulkOverrideBody,
        response: { 200: BulkAction, ...errorResponses },
      },
    },
    async (request) => {
      const { client_ids, filter, new_vod_access_level, adminOverrideDate } = request.body;
      return startBulkOverride(
        app,
        { clientIds: client_ids, filter, grant: { level: new_vod_access_level, until: new Date(adminOverrideDate), maxDays: app.config.OVERRIDE_MAX_DAYS } },
        auditActor(request),
        intentOf('bulk-override', request.staff?.id, request.headers['idempotency-key'], request.body),
      );
    },
  );

  app.get(
    `${ADMIN}/bulk/override/:id`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: "A bulk override's progress: done, failed, pending",
        params: BulkActionParams,
        response: { 200: BulkAction, ...errorResponses },
      },
    },
    async (request) => getBulkAction(app.database, request.params.id),
  );
};

export default broadcastRoutes;
