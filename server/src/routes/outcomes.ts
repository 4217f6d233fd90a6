import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@contract/common';
import { AutomationOutcomesQuery, AutomationOutcomeWeek, BroadcastOutcome, BroadcastOutcomeParams } from '@contract/outcomes';
import { localDay } from '../lib/localTime';
import { HttpError } from '../lib/errors';
import { automationOutcomes, broadcastOutcome } from '../outcomes/results';
import { weekOf } from '../outcomes/rules';

const ADMIN = '/api/admin/v1';
const WEEKS_SHOWN = 12;
const DAY_MS = 86_400_000;

/** Did a message work (docs/automation.md#did-it-work-goals-holdouts-and-lift): reading results is 'clients.read', as the broadcasts' counts are. */
const outcomeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${ADMIN}/broadcasts/:id/outcome`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags: ['broadcasts (extension)'],
        summary: "A broadcast's results: sent, delivered, opened, converted against its holdout, and the lift with its 95 % interval",
        params: BroadcastOutcomeParams,
        response: { 200: BroadcastOutcome, ...errorResponses },
      },
    },
    async (request) => broadcastOutcome(app.database, request.params.id),
  );

  app.get(
    `${ADMIN}/automation/outcomes`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags: ['automated messages (extension)'],
        summary: "Each automated type's results by studio week (Monday), newest first",
        querystring: AutomationOutcomesQuery,
        response: { 200: z.array(AutomationOutcomeWeek), ...errorResponses },
      },
    },
    async (request) => {
      const thisWeek = weekOf(localDay(app.clock.now(), app.config.STUDIO_TIME_ZONE));
      const to = request.query.to ?? thisWeek;
      const from = request.query.from ?? new Date(new Date(`${to}T00:00:00Z`).getTime() - (WEEKS_SHOWN - 1) * 7 * DAY_MS).toISOString().slice(0, 10);
      if (from > to) throw new HttpError(400, 'from must not be after to', [{ path: 'from', message: 'is after to' }]);
      return automationOutcomes(app.database, { type: request.query.type, from, to });
    },
  );
};

export default outcomeRoutes;
