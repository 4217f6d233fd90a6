import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '@contract/common';
import { RevenueCatWebhookBody, RevenueCatWebhookResponse } from '@contract/revenuecat';
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
      // RevenueCat redelivers a refused event forever: text it sends that the database cannot hold is removed, not refused.
      config: { public: true, scrubsText: true },
      bodyLimit: 256 * 1024,
      onRequest: requireWebhookAuth,
      schema: {
        tags: ['webhooks'],
        security: [{ revenuecatAuth: [] }],
        summary: 'RevenueCat webhook: purchases and the purchase-derived VOD access level',
        description:
          'Called by RevenueCat, not by the console. The `Authorization` header must equal REVENUECAT_WEBHOOK_AUTH exactly (401 otherwise, nothing stored). ' +
          'Each event is stored once by `event.id` and answered 200 right away; a redelivery answers 200 with duplicate: true and changes nothing. ' +
          "Processing happens in a background job that updates the purchase of the event's transaction; the level the entitlements map to " +
          "(REVENUECAT_ENTITLEMENT_LEVELS) is given from the purchase time until expiration_at_ms (or the grace period's end), whatever the last event, " +
          'and a job ends it within a minute of that time with no EXPIRATION needed (docs/integrations.md: the RevenueCat rule table). SANDBOX purchases give nothing ' +
          'unless REVENUECAT_ACCEPT_SANDBOX. TRANSFER moves purchases; TEST is logged; other types and unknown fields are stored. While an admin override runs, only purchase_access_level changes. ' +
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
