import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '../../../contract/common';
import { RevenueCatWebhookBody, RevenueCatWebhookResponse } from '../../../contract/revenuecat';
import { sameSecret } from '../integrations/keys';
import { REVENUECAT_PROCESS, storeEvent } from '../revenuecat/events';

/** POST /api/webhooks/revenuecat: store the event once, answer 200 at once, process it in a job. */
const revenuecatWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  // Runs before the body is read: a caller without the secret gets nothing parsed or stored.
  const requireWebhookAuth = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!sameSecret(request.headers.authorization, app.integrationKeys.revenuecatWebhookAuth.value)) {
      return reply.status(401).send({ message: 'Missing or wrong Authorization header' });
    }
  };

  app.post(
    '/api/webhooks/revenuecat',
    {
      config: { public: true },
      bodyLimit: 256 * 1024,
      onRequest: requireWebhookAuth,
      schema: {
        tags: ['webhooks'],
        security: [{ revenuecatAuth: [] }],
        summary: 'RevenueCat webhook: purchases and the purchase-derived VOD access level',
        description:
          'Called by RevenueCat, not by the console. The `Authorization` header must equal REVENUECAT_WEBHOOK_AUTH exactly (401 otherwise, nothing stored). ' +
          'Each event is stored once by `event.id` and answered 200 right away; a redelivery answers 200 with duplicate: true and changes nothing. ' +
          'Processing happens in a background job: INITIAL_PURCHASE, RENEWAL, NON_RENEWING_PURCHASE, PRODUCT_CHANGE and UNCANCELLATION grant the level the ' +
          'entitlements map to (REVENUECAT_ENTITLEMENT_LEVELS); CANCELLATION keeps access until expiry; EXPIRATION revokes; SUBSCRIPTION_PAUSED does not revoke; ' +
          'TRANSFER moves purchases; TEST is logged; other types and unknown fields are stored. While an admin override runs, only purchase_access_level changes. ' +
          'Clients are matched by app user id, original app user id, aliases, then e-mail; an event matching nobody is kept and retried.',
        body: RevenueCatWebhookBody,
        response: { 200: RevenueCatWebhookResponse, 400: ErrorResponse, 401: ErrorResponse, 413: ErrorResponse },
      },
    },
    async (request) => {
      const stored = await storeEvent(app.database, request.body, app.clock.now());
      if (stored.created) {
        try {
          await app.jobs.send(REVENUECAT_PROCESS, { id: stored.id });
        } catch (error) {
          // Stored is what counts for RevenueCat; the sweep job picks up events whose job went missing.
          request.log.error({ err: error, event: request.body.event.id }, 'could not queue a RevenueCat event');
        }
      }
      return { received: true as const, duplicate: !stored.created };
    },
  );
};

export default revenuecatWebhookRoutes;
