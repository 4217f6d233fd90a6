import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ClientIdentityBody,
  ClientKeyParams,
  ContractsResponse,
  DebugParams,
  DebugQuery,
  DebugResponse,
  FavoritesResponse,
  PurchasesQuery,
  PurchasesResponse,
  RECENT_VIDEOS_LIMIT,
  RecentlyViewedResponse,
} from '@contract/clients';
import { errorResponses } from '@contract/common';
import * as details from '../clients/details';

const LOOKUP_NOTE =
  'The client is found by e-mail (case-insensitive) when one is given, otherwise by MindBody id (longer than 2 characters) at the given site. ' +
  "Placeholders such as 'null', 'undefined' or 'N/A' count as absent. 400 when nothing identifies a client, 404 when nobody matches.";

/** The sections of the client-details page. */
const clientDetailsRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/api/client/v1/client-details';
  const tags = ['client details'];

  app.post(
    `${base}/recently-viewed-videos`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: `The ${RECENT_VIDEOS_LIMIT} videos the client streamed last, newest first`,
        description: LOOKUP_NOTE,
        body: ClientIdentityBody,
        response: { 200: RecentlyViewedResponse, ...errorResponses },
      },
    },
    async (request) => details.recentlyViewed(app.database, { email: request.body.email, mbClientId: request.body.mb_client_id }),
  );

  app.post(
    `${base}/favorites-videos`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: "The client's favorite videos, most recently added first",
        description: LOOKUP_NOTE,
        body: ClientIdentityBody,
        response: { 200: FavoritesResponse, ...errorResponses },
      },
    },
    async (request) => details.favorites(app.database, { email: request.body.email, mbClientId: request.body.mb_client_id }),
  );

  app.get(
    `${base}/:siteId/:mbClientId/purchases`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: "The client's in-app purchases, newest first",
        description: LOOKUP_NOTE,
        params: ClientKeyParams,
        querystring: PurchasesQuery,
        response: { 200: PurchasesResponse, ...errorResponses },
      },
    },
    async (request) => details.purchases(app.database, { email: request.query.email, mbClientId: request.params.mbClientId, siteId: request.params.siteId }),
  );

  app.get(
    `${base}/:siteId/:mbClientId/:email/debug`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: 'Debug records the app sent for the client, newest first',
        description: `${LOOKUP_NOTE} limit is capped at 100.`,
        params: DebugParams,
        querystring: DebugQuery,
        response: { 200: DebugResponse, ...errorResponses },
      },
    },
    async (request) => details.debugRecords(app.database, request.params, request.query.page, request.query.limit),
  );

  app.get(
    `${base}/:siteId/:mbClientId/contracts`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: "Our stored copy of the client's MindBody contracts",
        description:
          'Found by MindBody id at the site. A client without a MindBody id (a placeholder or an id of 2 characters or fewer) has no contracts: ' +
          'the answer is an empty list. 404 when the id names nobody.',
        params: ClientKeyParams,
        response: { 200: ContractsResponse, ...errorResponses },
      },
    },
    async (request) => details.storedContracts(app.database, { mbClientId: request.params.mbClientId, siteId: request.params.siteId }),
  );
};

export default clientDetailsRoutes;
