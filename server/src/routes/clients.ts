import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ClientDetailsParams,
  ClientDetailsResponse,
  ClientListParams,
  ClientListQuery,
  ClientListResponse,
  EXACT_TOTAL_CAP,
  MAX_PER_PAGE,
  UNPAGED_LIST_CAP,
  type ClientListId,
} from '../../../contract/clients';
import { errorResponses } from '../../../contract/common';
import { CLIENT_COLUMNS } from '../clients/listQuery';
import { listPage, unpagedList, wantsPage } from '../clients/lists';
import { toClient, type ClientRow } from '../clients/rows';
import { notFound } from '../lib/errors';
import clientDetailsRoutes from './clientDetails';
import accessLevelRoutes from './accessLevels';
import clientActionRoutes from './clientActions';

const LIST_DESCRIPTION = `List 1: all clients; 2: MindBody (a MindBody id longer than 2 characters); 3: active (status Active); 4: new (first login within the last 30 days).

**Without query parameters** (what the spec's console sends) the answer is \`{ clients }\`: the whole list ordered by _id, capped at ${UNPAGED_LIST_CAP.toLocaleString('en-US')} clients. When the cap cut the list short the response carries \`X-Clients-Truncated: true\`; page with the parameters below to see the rest.

**With any of page, perPage, sort, order, q or after** the answer is one page plus \`total\`, \`total_is_estimate\`, \`page\`, \`perPage\` and \`next_cursor\`. \`total\` is exact up to ${EXACT_TOTAL_CAP.toLocaleString('en-US')} clients; for a larger list it is the database planner's estimate and \`total_is_estimate\` is true (no page view counts a million rows), and exact again on the list's last page. perPage is capped at ${MAX_PER_PAGE}. Pages are index range scans: pass the previous page's \`next_cursor\` as \`after\` to go deeper at constant cost; \`page\` alone uses an offset.`;

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
      if (wantsPage(request.query)) return listPage(app.database, listId, request.query, now, signer);
      const { clients, truncated } = await unpagedList(app.database, listId, now);
      reply.header('x-clients-truncated', String(truncated));
      return { clients };
    },
  );

  app.get(
    '/api/client/v1/client-details/:id',
    {
      schema: {
        tags: ['clients'],
        summary: 'One client (spec §7): `client` holds exactly one entry',
        params: ClientDetailsParams,
        response: { 200: ClientDetailsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const rows = await app.database.query<ClientRow>(`SELECT ${CLIENT_COLUMNS} FROM clients c WHERE c.id = $1`, [request.params.id]);
      if (!rows[0]) throw notFound(`No client with id ${request.params.id}`);
      return { client: [toClient(rows[0])] };
    },
  );

  await app.register(clientDetailsRoutes);
  await app.register(accessLevelRoutes);
  await app.register(clientActionRoutes);
};

export default clientRoutes;
