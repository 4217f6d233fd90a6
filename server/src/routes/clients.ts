import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordLooks } from '../clientData/looks';
import {
  ClientDetailsParams,
  ClientDetailsResponse,
  ClientListParams,
  ClientListQuery,
  ClientListResponse,
  EXACT_TOTAL_CAP,
  MAX_PER_PAGE,
  NUMBERED_LIST_MAX,
  UNPAGED_LIST_CAP,
  type ClientListId,
} from '@contract/clients';
import { errorResponses } from '@contract/common';
import { clientById } from '../clients/details';
import { listPage, unpagedList, wantsPage } from '../clients/lists';
import { REAUTH_REQUIRED, recentlyVerified } from '../auth/reauth';
import { EXPORT_WITHOUT_REAUTH_MAX } from '@contract/clientRules';
import clientDetailsRoutes from './clientDetails';
import accessLevelRoutes from './accessLevels';
import clientActionRoutes from './clientActions';

const LIST_DESCRIPTION = `List 1: all clients; 2: MindBody (a MindBody id longer than 2 characters); 3: active (status Active); 4: new (first login within the last 30 days).

**Without query parameters** (what the spec's console sends) the answer is \`{ clients }\`: the whole list ordered by _id, capped at ${UNPAGED_LIST_CAP.toLocaleString('en-US')} clients. When the cap cut the list short the response carries \`X-Clients-Truncated: true\`; page with the parameters below to see the rest.

**With any of page, perPage, sort, order, after or a filter** (q, status, vod_access_level, new, mindbody, override_running, override_ends_within_days; combined with AND, on top of the list's own rule) the answer is one page plus \`total\`, \`total_is_estimate\`, \`page\`, \`perPage\` and \`next_cursor\`. \`total\` is exact up to ${EXACT_TOTAL_CAP.toLocaleString('en-US')} clients; for a larger list it is the database planner's estimate and \`total_is_estimate\` is true (no page view counts a million rows), and exact again on the list's last page. perPage is capped at ${MAX_PER_PAGE}. Pass the previous page's \`next_cursor\` as \`after\` to go on at any depth at constant cost; the last pages of a list are the first pages of the other \`order\`. \`page\` alone (an offset) is served for every page of a list of at most ${NUMBERED_LIST_MAX.toLocaleString('en-US')} clients, and only page 1 of a larger one (400 otherwise).`;

const clientRoutes: FastifyPluginAsyncZod = async (app) => {
  const signer = {
    sign: (value: string) => app.signCookie(value),
    unsign: (signed: string) => {
      const result = app.unsignCookie(signed);
      return result.valid ? result.value : null;
    },
  };

  app.get(
    '/api/client/v1/clients/:listId',
    {
      config: { permission: 'clients.read' },
      schema: {
        tags: ['clients'],
        summary: 'One of the four client lists (spec §7), whole or one page',
        description: LIST_DESCRIPTION,
        params: ClientListParams,
        querystring: ClientListQuery,
        response: { 200: ClientListResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const listId = Number(request.params.listId) as ClientListId;
      const now = app.clock.now();
      if (wantsPage(request.query)) {
        const page = await listPage(app.database, listId, request.query, now, signer);
        // A large export is a copy of many members' data leaving the console: a second look first, like bulk actions.
        if (request.query.export && page.total > EXPORT_WITHOUT_REAUTH_MAX && !(await recentlyVerified(app, request, null))) {
          return reply.status(403).send({ message: REAUTH_REQUIRED, reauth_required: true });
        }
        return page;
      }
      const { clients, truncated } = await unpagedList(app.database, listId, now);
      reply.header('x-clients-truncated', String(truncated));
      return { clients };
    },
  );

  app.get(
    '/api/client/v1/client-details/:id',
    {
      config: { permission: 'clients.read' },
      schema: {
        tags: ['clients'],
        summary: 'One client (spec §7): `client` holds exactly one entry',
        params: ClientDetailsParams,
        response: { 200: ClientDetailsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const answer = await clientById(app.database, request.params.id);
      // Who looked at whose data: once per staff member, client and hour (client_looks' key).
      if (request.staff) await recordLooks(app.database, request.staff, [Number(request.params.id)], 'page', app.clock.now());
      return answer;
    },
  );

  await app.register(clientDetailsRoutes);
  await app.register(accessLevelRoutes);
  await app.register(clientActionRoutes);
};

export default clientRoutes;
