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
} from '../../../contract/clients';
import { errorResponses } from '../../../contract/common';
import { isUsableKey, requireClientId } from '../clients/lookup';
import * as sections from '../clients/sections';

const LOOKUP_NOTE =
  'The client is found by e-mail (case-insensitive) when one is given, otherwise by MindBody id (longer than 2 characters) at the given site. ' +
  "Placeholders such as 'null', 'undefined' or 'N/A' count as absent. 400 when nothing identifies a client, 404 when nobody matches.";

/** The sections of the client-details page (spec §2 and §7). */
const clientDetailsRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/api/client/v1/client-details';
  const tags = ['client details'];

  app.post(
    `${base}/recently-viewed-videos`,
    {
      schema: {
        tags,
        summary: `The ${RECENT_VIDEOS_LIMIT} videos the client streamed last, newest first`,
        description: LOOKUP_NOTE,
        body: ClientIdentityBody,
        response: { 200: RecentlyViewedResponse, ...errorResponses },
      },
    },
    async (request) => {
      const clientId = await requireClientId(app.database, { email: request.body.email, mbClientId: request.body.mb_client_id });
      return { videos: await sections.recentlyViewedVideos(app.database, clientId) };
    },
  );

  app.post(
    `${base}/favorites-videos`,
    {
      schema: {
        tags,
        summary: "The client's favorite videos, most recently added first",
        description: LOOKUP_NOTE,
        body: ClientIdentityBody,
        response: { 200: FavoritesResponse, ...errorResponses },
      },
    },
    async (request) => {
      const clientId = await requireClientId(app.database, { email: request.body.email, mbClientId: request.body.mb_client_id });
      return { videos: await sections.favoriteVideos(app.database, clientId) };
    },
  );

  app.get(
    `${base}/:siteId/:mbClientId/purchases`,
    {
      schema: {
        tags,
        summary: "The client's in-app purchases, newest first",
        description: LOOKUP_NOTE,
        params: ClientKeyParams,
        querystring: PurchasesQuery,
        response: { 200: PurchasesResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { siteId, mbClientId } = request.params;
      const clientId = await requireClientId(app.database, { email: request.query.email, mbClientId, siteId });
      return { errors: [], purchases: await sections.purchases(app.database, clientId) };
    },
  );

  app.get(
    `${base}/:siteId/:mbClientId/:email/debug`,
    {
      schema: {
        tags,
        summary: 'Debug records the app sent for the client, newest first',
        description: `${LOOKUP_NOTE} limit is capped at 100.`,
        params: DebugParams,
        querystring: DebugQuery,
        response: { 200: DebugResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { siteId, mbClientId, email } = request.params;
      const clientId = await requireClientId(app.database, { email, mbClientId, siteId });
      return { debugInfo: await sections.debugRecords(app.database, clientId, request.query.page, request.query.limit) };
    },
  );

  app.get(
    `${base}/:siteId/:mbClientId/contracts`,
    {
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
    async (request) => {
      const key = { mbClientId: request.params.mbClientId, siteId: request.params.siteId };
      if (!isUsableKey(key)) return { errors: [], contracts: [] };
      const clientId = await requireClientId(app.database, key);
      return { errors: [], contracts: await sections.contracts(app.database, clientId) };
    },
  );
};

export default clientDetailsRoutes;
