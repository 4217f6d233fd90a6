import { sql } from 'drizzle-orm';
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
  type ActionError,
} from '../../../contract/clientActions';
import { isPlaceholder, overrideEndProblem } from '../../../contract/clientRules';
import { errorResponses } from '../../../contract/common';
import { contentRange, jsonParam, rangeParam } from '../../../contract/raSimpleRest';
import { grantOverride } from '../clients/accessOverride';
import { CONTRACT_SYNC_DEADLINE_MS, syncContracts } from '../clients/contractSync';
import { findClientId, requireClientId } from '../clients/lookup';
import { HttpError, notFound } from '../lib/errors';
import { auditActor, recordAudit, recordAuditSql } from '../audit/record';

/** Rows of a drizzle `execute` result, whichever driver answered (node-postgres: { rows }, PGlite: { rows }). */
const rowsOf = (result: unknown): unknown[] => ((result as { rows?: unknown[] }).rows ?? (Array.isArray(result) ? result : []));

const refuse = (status: number, path: string, message: string) => new HttpError(status, message, [{ path, message }]);

/** The four things staff do to one client (spec §2 modals, §7), and the record of pushes. */
const clientActionRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/api/client/v1/client-details';
  const tags = ['client actions'];

  app.post(
    `${base}/favorites-videos-update`,
    {
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
    async (request) => {
      const { vimeo_video_id, email_address, mb_client_id, video_category_id, update_type } = request.body;
      const errors: ActionError[] = [];
      const clientId = await findClientId(app.database, { email: email_address, mbClientId: mb_client_id });
      if (clientId === null) errors.push({ path: 'email_address', message: 'No client matches that email_address or mb_client_id', code: 'unknown_client' });
      const [video] = await app.database.query<{ id: number }>('SELECT id FROM videos WHERE vimeo_video_id = $1 AND deleted_at IS NULL', [vimeo_video_id]);
      if (!video) errors.push({ path: 'vimeo_video_id', message: `No video with Vimeo id ${vimeo_video_id} in the library`, code: 'unknown_video' });
      if (errors.length > 0) return { errors };
      const favorite = { vimeo_video_id, video_id: video!.id };
      await app.db.transaction(async (tx) => {
        const changed =
          update_type === 'add'
            ? await tx.execute(
                sql`INSERT INTO favorites (client_id, video_id, video_category_id, created_at)
                    VALUES (${clientId}, ${video!.id}, ${video_category_id}, ${app.clock.now().toISOString()})
                    ON CONFLICT (client_id, video_id) DO NOTHING RETURNING client_id`,
              )
            : await tx.execute(sql`DELETE FROM favorites WHERE client_id = ${clientId} AND video_id = ${video!.id} RETURNING client_id`);
        // Adding a favorite twice, or removing one that is not there, changes nothing and is not an action.
        if (rowsOf(changed).length === 0) return;
        await recordAudit(tx, {
          ...auditActor(request),
          action: update_type === 'add' ? 'client.favorite_add' : 'client.favorite_remove',
          target_type: 'client',
          target_id: clientId,
          client_id: clientId,
          before: update_type === 'add' ? null : favorite,
          after: update_type === 'add' ? favorite : null,
        });
      });
      return { errors: [] };
    },
  );

  app.post(
    `${base}/update-access-level`,
    {
      schema: {
        tags,
        summary: "Give the client another VOD access level until a date; it ends by itself",
        description:
          'Stores the new level, the end of the override and the level it replaced in one transaction, and records the grant (with the ' +
          'staff member) in the override history the subscriber trend counts. When the date passes, a ' +
          'background job puts the client back on the level their purchases give, else the replaced one. adminOverrideDate must be in ' +
          'the future and at most 28 days ahead. 404: no such client; 400: an unknown level or a date out of range.',
        body: UpdateAccessLevelBody,
        response: { 200: UpdateAccessLevelResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { client_id, new_vod_access_level, adminOverrideDate } = request.body;
      const now = app.clock.now();
      const until = new Date(adminOverrideDate);
      const problem = overrideEndProblem(until, now);
      if (problem) throw refuse(400, 'adminOverrideDate', problem);
      const levels = await app.database.query<{ sort_order: number }>('SELECT sort_order FROM access_levels ORDER BY sort_order');
      if (!levels.some((level) => Number(level.sort_order) === new_vod_access_level)) {
        throw refuse(400, 'new_vod_access_level', `new_vod_access_level ${new_vod_access_level} is not an access level (levels: ${levels.map((l) => l.sort_order).join(', ')})`);
      }
      const client = await app.database.transaction(async (tx) => {
        const [before] = await tx.query<{ vod_access_level: number | null; admin_updated_expiration: Date | string | null }>(
          'SELECT vod_access_level, admin_updated_expiration FROM clients WHERE id = $1 FOR UPDATE',
          [client_id],
        );
        if (!before) return null;
        const granted = await grantOverride(tx, { clientId: client_id, level: new_vod_access_level, until, now, grantedBy: request.staff?.email ?? null });
        if (!granted) return null;
        await recordAuditSql(tx, {
          ...auditActor(request),
          action: 'client.override_grant',
          target_type: 'client',
          target_id: client_id,
          client_id,
          before: { vod_access_level: before.vod_access_level, admin_updated_expiration: before.admin_updated_expiration === null ? null : new Date(before.admin_updated_expiration).toISOString() },
          after: { vod_access_level: new_vod_access_level, admin_updated_expiration: until.toISOString() },
        });
        return granted;
      });
      if (!client) throw refuse(404, 'client_id', `No client with id ${client_id}`);
      request.log.info({ client: client_id, level: new_vod_access_level, until: until.toISOString(), staff: request.staff?.email }, 'access level override granted');
      return { errors: [], client };
    },
  );

  app.post(
    `${base}/push-notification`,
    {
      schema: {
        tags,
        summary: "Push a notification to the client's devices (FCM)",
        description:
          "Sent to the device tokens of the client's newest debug records, skipping tokens FCM reported as unregistered. " +
          '`updated` is true when at least one device got it; otherwise `message` says why (no token, FCM refused). Every push is ' +
          'recorded. Send an Idempotency-Key header to make a retried request answer the first outcome instead of pushing twice.',
        headers: PushNotificationHeaders,
        body: PushNotificationBody,
        response: { 200: PushNotificationResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { notification, email_address, mb_client_id } = request.body;
      const clientId = await requireClientId(app.database, { email: email_address, mbClientId: mb_client_id });
      const staff = request.staff!;
      const outcome = await app.push.sendToClient({
        clientId,
        title: notification.title,
        body: notification.body,
        sentBy: { staffUserId: staff.id, email: staff.email },
        source: 'console',
        idempotencyKey: request.headers['idempotency-key'],
      });
      // The push itself is recorded by the push service before anything is sent; this entry says who did it.
      await recordAudit(app.db, {
        ...auditActor(request),
        action: 'client.push',
        target_type: 'client',
        target_id: clientId,
        client_id: clientId,
        before: null,
        after: { title: notification.title, body: notification.body, updated: outcome.updated, push_id: outcome.push_id, ...(outcome.reason ? { reason: outcome.reason } : {}) },
      });
      return { updated: outcome.updated, ...(outcome.reason ? { message: outcome.reason } : {}), push_id: outcome.push_id, results: outcome.results };
    },
  );

  app.get(
    '/api/v1/sync/contracts/:siteId/:mbClientId',
    {
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
      const mbClientId = request.params.mbClientId;
      const givenSite = isPlaceholder(request.params.siteId) ? null : Number(request.params.siteId);
      const clientId = await findClientId(app.database, { mbClientId, siteId: givenSite });
      if (clientId === null) throw notFound(`No client with MindBody id ${mbClientId}${givenSite === null ? '' : ` at site ${givenSite}`}`);
      // Without a site in the path: the client's own, else the one site this server syncs.
      const [stored] = await app.database.query<{ mb_site_id: number | null }>('SELECT mb_site_id FROM clients WHERE id = $1', [clientId]);
      const siteId = givenSite ?? stored?.mb_site_id ?? (app.mindbody.siteIds.length === 1 ? app.mindbody.siteIds[0]! : null);
      if (siteId === null) throw refuse(400, 'siteId', `siteId is required: client ${mbClientId} has no MindBody site stored`);
      const result = await syncContracts({ database: app.database, mindbody: app.mindbody, now: () => app.clock.now() }, { id: clientId, siteId, mbClientId });
      if (result.errors.length > 0) request.log.warn({ client: clientId, errors: result.errors }, 'contract sync failed');
      await recordAudit(app.db, {
        ...auditActor(request),
        action: 'client.contracts_sync',
        target_type: 'client',
        target_id: clientId,
        client_id: clientId,
        before: null,
        after: result.errors.length > 0 ? { outcome: 'failed', errors: result.errors.map((error) => error.message) } : { outcome: 'stored', contracts: result.mbContracts.length },
      });
      return result;
    },
  );

  app.get(
    '/api/admin/v1/pushes',
    {
      schema: {
        tags: ['client actions (extension)'],
        summary: 'Recorded pushes, newest first (ra-data-simple-rest getList)',
        description: 'filter {"client_id":5} gives one client\'s pushes; the total is in Content-Range: pushes 0-9/42.',
        querystring: z.object({
          filter: jsonParam(
            z.object({ client_id: z.number().int().positive('client_id must be a positive id').optional() }),
            '{"client_id":5}',
          ).optional(),
          range: rangeParam.optional(),
          sort: z.string().max(100).optional().describe('Ignored: always newest first'),
        }),
        response: { 200: z.array(PushRecord), ...errorResponses },
      },
    },
    async (request, reply) => {
      const clientId = request.query.filter?.client_id ?? null;
      const [start, end] = request.query.range ?? [0, 9];
      const rows = await app.database.query<Record<string, unknown>>(
        `SELECT id, client_id, sent_by, source, title, body, status, reason, results, created_at, count(*) OVER () AS total
         FROM pushes WHERE ($1::bigint IS NULL OR client_id = $1)
         ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
        [clientId, end - start + 1, start],
      );
      const total = rows.length > 0 ? Number(rows[0]!.total) : Number((await app.database.query<{ n: number }>('SELECT count(*) AS n FROM pushes WHERE ($1::bigint IS NULL OR client_id = $1)', [clientId]))[0]!.n);
      reply.header('content-range', contentRange('pushes', start, rows.length, total));
      return rows.map((row) => ({
        id: Number(row.id),
        client_id: row.client_id === null ? null : Number(row.client_id),
        sent_by: String(row.sent_by),
        source: String(row.source),
        title: String(row.title),
        body: String(row.body),
        status: row.status as PushRecord['status'],
        reason: (row.reason as string | null) ?? null,
        results: Array.isArray(row.results) ? (row.results as PushRecord['results']) : [],
        created_at: new Date(row.created_at as string).toISOString(),
      }));
    },
  );
};

export default clientActionRoutes;
