import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DebugInfoBody, DebugInfoResponse, PushOpenedBody, PushOpenedResponse, VideoViewBody, VideoViewResponse } from '@contract/appReports';
import { ErrorResponse } from '@contract/common';
import { findReportingClient, findVideo, recordPushOpened, recordView, storeDebugReport } from '../appReports/store';
import { IdTokenKeysUnavailable, IdTokenRejected } from '../integrations/firebase/idToken';
import { sameSecret } from '../integrations/keys';
import { HttpError, notFound } from '../lib/errors';
import { createRateLimiter } from '../lib/rateLimit';

const DEBUG_BODY_LIMIT = 64 * 1024;
const VIEW_BODY_LIMIT = 4 * 1024;
// The app's clock may run a little ahead of ours.
const FUTURE_TOLERANCE_MS = 5 * 60_000;

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse };
const description =
  "Called by the studio's mobile app, not by the console: authenticated by the `X-App-Key` header (APP_API_KEY), " +
  'no staff session. With FIREBASE_PROJECT_ID set, `Authorization: Bearer <Firebase ID token>` of the signed-in user is ' +
  'required too (401 otherwise) and its verified e-mail names the client; without it the client is named by `email` or ' +
  '`mb_client_id`. Requests are rate-limited per address (APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE) and per client ' +
  '(APP_RATE_LIMIT_PER_MINUTE; debug reports per client and device token), per server instance: 429 with Retry-After beyond that.';

/** Who a report is from: proven by a Firebase ID token, or only claimed by the body. */
interface Reporter {
  email: string | null;
  mb_client_id: string | null;
  verified: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    reporter?: Reporter;
  }
}

const isTooFarAhead = (at: Date, now: Date) => at.getTime() > now.getTime() + FUTURE_TOLERANCE_MS;
const inTheFuture = (field: string) =>
  new HttpError(400, `Invalid request: body.${field}: is in the future`, [{ path: `body.${field}`, message: 'is in the future' }]);

/** POST /api/app/v1/debug-info and /api/app/v1/video-views: what the mobile app reports. */
const appReportRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['mobile app'];
  // The app key alone, or with FIREBASE_PROJECT_ID the app key and the user's Firebase ID token.
  const security = app.idTokens ? [{ appKey: [], firebaseIdToken: [] }] : [{ appKey: [] }];
  const limiters = {
    address: createRateLimiter({ limit: app.config.APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE, windowMs: 60_000, now: () => app.clock.now().getTime() }),
    debug: createRateLimiter({ limit: app.config.APP_RATE_LIMIT_PER_MINUTE, windowMs: 60_000, now: () => app.clock.now().getTime() }),
    views: createRateLimiter({ limit: app.config.APP_RATE_LIMIT_PER_MINUTE, windowMs: 60_000, now: () => app.clock.now().getTime() }),
    opens: createRateLimiter({ limit: app.config.APP_RATE_LIMIT_PER_MINUTE, windowMs: 60_000, now: () => app.clock.now().getTime() }),
  };

  // Runs before the body is read: a caller without the key gets nothing parsed or stored.
  const requireAppKey = async (request: FastifyRequest, reply: FastifyReply) => {
    const given = request.headers['x-app-key'];
    if (!sameSecret(typeof given === 'string' ? given : undefined, app.integrationKeys.appApiKey.value)) {
      return reply.status(401).send({ message: 'Missing or wrong X-App-Key header' });
    }
    // Many e-mails from one address must not buy many rows.
    refuseBeyond(
      limiters.address,
      `address:${request.ip}`,
      reply,
      `Too many reports from this address: at most ${app.config.APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE} a minute`,
    );
  };
  const refuseBeyond = (limiter: (typeof limiters)['debug'], key: string, reply: FastifyReply, message: string) => {
    const verdict = limiter.take(key);
    if (!verdict.allowed) {
      const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      reply.header('retry-after', String(seconds));
      throw new HttpError(429, `${message}; retry in ${seconds} s`);
    }
  };
  // The shared key proves only that the caller has the app; a Firebase ID token proves the client.
  const identifyReporter = async (request: FastifyRequest) => {
    const body = request.body as { email?: string | null; mb_client_id?: string | null };
    const claimed = { email: body.email?.trim() || null, mb_client_id: body.mb_client_id?.trim() || null };
    if (!app.idTokens) {
      request.reporter = { ...claimed, verified: false };
      return;
    }
    let identity;
    try {
      identity = await app.idTokens(request.headers.authorization);
    } catch (error) {
      if (error instanceof IdTokenRejected) throw new HttpError(401, error.message);
      if (error instanceof IdTokenKeysUnavailable) {
        request.log.warn({ err: error.message }, 'Firebase ID token keys unavailable');
        throw new HttpError(503, 'Cannot check the Firebase ID token right now; retry in a minute');
      }
      throw error;
    }
    if (claimed.email && claimed.email.toLowerCase() !== identity.email.toLowerCase()) {
      throw new HttpError(401, "The report's email is not the e-mail address of the signed-in Firebase user");
    }
    request.reporter = { email: identity.email, mb_client_id: claimed.mb_client_id, verified: true };
  };
  const limitPerClient = (limiter: (typeof limiters)['debug']) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { email, mb_client_id } = request.reporter!;
    // Debug reports count per client and device token: anyone can name a client, and if their
    // reports spent the client's own budget, the real device could be kept from reporting until
    // its slot lapses after 30 days. Rows stay bounded per client by the history cap.
    const device = limiter === limiters.debug ? `|token:${(request.body as { firebase_token_new?: string | null }).firebase_token_new?.trim() ?? ''}` : '';
    const key = `${email ? `email:${email.toLowerCase()}` : `mb:${mb_client_id}`}${device}`;
    refuseBeyond(limiter, key, reply, `Too many reports for this client: at most ${app.config.APP_RATE_LIMIT_PER_MINUTE} a minute`);
  };

  app.post(
    '/api/app/v1/debug-info',
    {
      config: { public: true },
      bodyLimit: DEBUG_BODY_LIMIT,
      onRequest: requireAppKey,
      preHandler: [identifyReporter, limitPerClient(limiters.debug)],
      schema: {
        tags,
        security,
        summary: 'Store one debug record from the app (spec §3 fields)',
        description:
          `${description} Body at most ${DEBUG_BODY_LIMIT / 1024} KB; \`sent_at\` at most ${FUTURE_TOLERANCE_MS / 60_000} minutes ahead. ` +
          'A record whose client is not known yet is kept (within bounds) and attached when the client is imported from Mindbody. ' +
          'Without a verified Firebase ID token a record may add a device but not displace one that reported in the last 30 days.',
        body: DebugInfoBody,
        response: { 201: DebugInfoResponse, ...errors },
      },
    },
    async (request, reply) => {
      const now = app.clock.now();
      if (request.body.sent_at && isTooFarAhead(new Date(request.body.sent_at), now)) throw inTheFuture('sent_at');
      const reporter = request.reporter!;
      const clientId = await findReportingClient(app.database, reporter, { emailOnly: reporter.verified });
      const body = { ...request.body, email: reporter.email ?? request.body.email };
      const id = await storeDebugReport(app.database, body, { clientId, receivedFrom: request.ip, verified: reporter.verified, now });
      return reply.status(201).send({ id, client_id: clientId });
    },
  );

  app.post(
    '/api/app/v1/video-views',
    {
      config: { public: true },
      bodyLimit: VIEW_BODY_LIMIT,
      onRequest: requireAppKey,
      preHandler: [identifyReporter, limitPerClient(limiters.views)],
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
      if (isTooFarAhead(viewedAt, app.clock.now())) throw inTheFuture('viewed_at');
      const reporter = request.reporter!;
      const clientId = await findReportingClient(app.database, reporter, { emailOnly: reporter.verified });
      if (clientId === null) throw notFound('No client matches that email or mb_client_id');
      const vimeoVideoId = String(body.vimeo_video_id).trim();
      const videoId = await findVideo(app.database, vimeoVideoId);
      if (videoId === null) throw notFound(`No video with vimeo_video_id ${vimeoVideoId}`);
      const view = await recordView(app.database, { clientId, videoId, viewedAt });
      return reply.status(view.duplicate ? 200 : 201).send({ id: view.id, client_id: clientId, video_id: videoId, duplicate: view.duplicate });
    },
  );

  app.post(
    '/api/app/v1/push-opened',
    {
      config: { public: true },
      bodyLimit: VIEW_BODY_LIMIT,
      onRequest: requireAppKey,
      preHandler: [identifyReporter, limitPerClient(limiters.opens)],
      schema: {
        tags,
        security,
        summary: "Record that the client opened a push (its push_id is in the push's data)",
        description:
          `${description} Body at most ${VIEW_BODY_LIMIT / 1024} KB. A push that is not this client's, or no push at all, is answered 404 alike. ` +
          'The first report stands: the same push reported again is answered 200 with duplicate: true.',
        body: PushOpenedBody,
        response: { 200: PushOpenedResponse, 201: PushOpenedResponse, ...errors },
      },
    },
    async (request, reply) => {
      const now = app.clock.now();
      const openedAt = request.body.opened_at ? new Date(request.body.opened_at) : now;
      if (isTooFarAhead(openedAt, now)) throw inTheFuture('opened_at');
      const reporter = request.reporter!;
      const clientId = await findReportingClient(app.database, reporter, { emailOnly: reporter.verified });
      const opened = clientId === null ? null : await recordPushOpened(app.database, { clientId, pushId: request.body.push_id, openedAt });
      if (!opened) throw notFound('No push with that push_id for this client');
      return reply.status(opened.duplicate ? 200 : 201).send({ push_id: request.body.push_id, opened_at: opened.opened_at, duplicate: opened.duplicate });
    },
  );
};

export default appReportRoutes;
