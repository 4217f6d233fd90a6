import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@contract/common';
import { EndOverrideParams, EndOverrideResponse, OVERRIDE_ENDING_SOON_DAYS, OverridesQuery, RunningOverride } from '@contract/overrides';
import { contentRange } from '@contract/raSimpleRest';
import { auditActor } from '../audit/record';
import { endOverrideNow, listRunningOverrides } from '../clients/overrides';

const ADMIN = '/api/admin/v1';
const tags = ['overrides (extension)'];

/** Overrides staff manage: the running ones, and ending one now. Extending is a later grant of the same level. */
const overrideRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${ADMIN}/overrides`,
    {
      config: { permission: 'clients.override' },
      schema: {
        tags,
        summary: 'Running access-level overrides, the soonest end first (ra-data-simple-rest getList)',
        description:
          `filter {"ending_within_days":${OVERRIDE_ENDING_SOON_DAYS}} keeps those ending within that many days; {"client_id":5} one client's. ` +
          'Each row has the client, the level, when and by whom it was granted, the reason and its end. Total in Content-Range: overrides 0-24/42.',
        querystring: OverridesQuery,
        response: { 200: z.array(RunningOverride), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { filter = {}, sort = ['ends_at', 'ASC'], range = [0, 24] } = request.query;
      const { rows, total } = await listRunningOverrides(app.database, {
        now: app.clock.now(),
        endingWithinDays: filter.ending_within_days,
        clientId: filter.client_id,
        sort,
        range,
      });
      reply.header('cache-control', 'no-store');
      reply.header('content-range', contentRange('overrides', range[0], rows.length, total));
      return rows;
    },
  );

  app.delete(
    `${ADMIN}/clients/:id/override`,
    {
      config: { permission: 'clients.override' },
      schema: {
        tags,
        summary: "End the client's access-level override now",
        description:
          'Puts the client back at once on the level their purchases give (else the level the override replaced, else the free level), ' +
          'closes the override in the override history as ended by this staff member and records it in the audit log. ' +
          '404: no such client; 409: no override is running.',
        params: EndOverrideParams,
        response: { 200: EndOverrideResponse, ...errorResponses },
      },
    },
    async (request) => {
      const client = await endOverrideNow(app.database, request.params.id, auditActor(request));
      request.log.info({ client: request.params.id, staff: request.staff?.id }, 'access level override ended by staff');
      return { client };
    },
  );
};

export default overrideRoutes;
