import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DebugInfoBody, DebugInfoResponse, VideoViewBody, VideoViewResponse } from '../../../contract/appReports';
import { ErrorResponse } from '../../../contract/common';
import { findReportingClient, findVideo, insertDebugRecord, recordView } from '../appReports/store';
import { sameSecret } from '../integrations/keys';
import { HttpError, notFound } from '../lib/errors';
import { createRateLimiter } from '../lib/rateLimit';

const DEBUG_BODY_LIMIT = 64 * 1024;
const VIEW_BODY_LIMIT = 4 * 1024;
// The app's clock may run a little ahead of ours.
const FUTURE_TOLERANCE_MS = 5 * 60_000;

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse, 429: ErrorResponse };
const description =
  'Called by the studio\'s mobile app, not by the console: authenticated by the `X-App-Key` header (APP_API_KEY), ' +
  'no staff session. The client is named by `email` or `mb_client_id`. Requests are rate-limited per client ' +
  '(APP_RATE_LIMIT_PER_MINUTE, per server instance): 429 with Retry-After beyond that.';

/** POST /api/app/v1/debug-info and /api/app/v1/video-views: what the mobile app reports. */
const appReportRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['mobile app'];
  const security = [{ appKey: [] }];
  const limiters = {
    debug: createRateLimiter({ limit: app.config.APP_RATE_LIMIT_PER_MINUTE, windowMs: 60_000, now: () => app.clock.now().getTime() }),
    views: createRateLimiter({ limit: app.config.APP_RATE_LIMIT_PER_MINUTE, windowMs: 60_000, now: () => app.clock.now().getTime() }),
  };

  // Runs before the body is read: a caller without the key gets nothing parsed or stored.
  const requireAppKey = async (request: FastifyRequest, reply: FastifyReply) => {
    const given = request.headers['x-app-key'];
    if (!sameSecret(typeof given === 'string' ? given : undefined, app.integrationKeys.appApiKey.value)) {
      return reply.status(401).send({ message: 'Missing or wrong X-App-Key header' });
    }
  };
  const limitPerClient = (limiter: (typeof limiters)['debug']) => async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as { email?: string | null; mb_client_id?: string | null };
    const key = body.email ? `email:${body.email.trim().toLowerCase()}` : `mb:${body.mb_client_id?.trim()}`;
    const verdict = limiter.take(key);
    if (!verdict.allowed) {
      const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      reply.header('retry-after', String(seconds));
      throw new HttpError(429, `Too many reports for this client: at most ${app.config.APP_RATE_LIMIT_PER_MINUTE} a minute; retry in ${seconds} s`);
    }
  };

  app.post(
    '/api/app/v1/debug-info',
    {
      config: { public: true },
      bodyLimit: DEBUG_BODY_LIMIT,
      onRequest: requireAppKey,
      preHandler: limitPerClient(limiters.debug),
      schema: {
        tags,
        security,
        summary: 'Store one debug record from the app (spec §3 fields)',
        description: `${description} Body at most ${DEBUG_BODY_LIMIT / 1024} KB. A record whose client is not known yet is kept and attached when the client is imported from Mindbody.`,
        body: DebugInfoBody,
        response: { 201: DebugInfoResponse, ...errors },
      },
    },
    async (request, reply) => {
      const clientId = await findReportingClient(app.database, request.body);
      const id = await insertDebugRecord(app.database, request.body, { clientId, ip: request.ip, now: app.clock.now() });
      return reply.status(201).send({ id, client_id: clientId });
    },
  );

  app.post(
    '/api/app/v1/video-views',
    {
      config: { public: true },
      bodyLimit: VIEW_BODY_LIMIT,
      onRequest: requireAppKey,
      preHandler: limitPerClient(limiters.views),
      schema: {
        tags,
        security,
        summary: 'Record one streamed video (Recent Streamed Videos, dashboard figures)',
        description: `${description} Body at most ${VIEW_BODY_LIMIT / 1024} KB. The same (client, video, viewed_at) sent again is answered 200 with duplicate: true and counted once.`,
        body: VideoViewBody,
        response: { 200: VideoViewResponse, 201: VideoViewResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const viewedAt = new Date(body.viewed_at);
      if (viewedAt.getTime() > app.clock.now().getTime() + FUTURE_TOLERANCE_MS) {
        throw new HttpError(400, 'Invalid request: body.viewed_at: is in the future', [{ path: 'body.viewed_at', message: 'is in the future' }]);
      }
      const clientId = await findReportingClient(app.database, body);
      if (clientId === null) throw notFound('No client matches that email or mb_client_id');
      const vimeoVideoId = String(body.vimeo_video_id).trim();
      const videoId = await findVideo(app.database, vimeoVideoId);
      if (videoId === null) throw notFound(`No video with vimeo_video_id ${vimeoVideoId}`);
      const view = await recordView(app.database, { clientId, videoId, viewedAt });
      return reply.status(view.duplicate ? 200 : 201).send({ id: view.id, client_id: clientId, video_id: videoId, duplicate: view.duplicate });
    },
  );
};

export default appReportRoutes;
