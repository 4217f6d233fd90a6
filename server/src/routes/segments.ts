import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@contract/common';
import { contentRange } from '@contract/raSimpleRest';
import {
  AtRiskPage,
  AT_RISK_DEFAULT_PER_PAGE,
  AtRiskQuery,
  MAX_SEGMENTS,
  PREVIEW_SAMPLE,
  Segment,
  SegmentBody,
  SegmentListQuery,
  SegmentParams,
  SegmentPreview,
  SegmentPreviewBody,
} from '@contract/segments';
import { auditActor } from '../audit/record';
import { previewSegment } from '../segments/count';
import { atRiskPage } from '../segments/atRisk';
import { createSegment, deleteSegment, getSegment, listSegments, updateSegment } from '../segments/queries';

const ADMIN = '/api/admin/v1';
const tags = ['segments (extension)'];

/**
 * Saved segments (docs/features.md#segments). A segment is a named view of the clients, like a
 * list's filter in a link: seeing and using them is 'clients.read', saving, changing and deleting
 * them 'segments.edit' (they are shared by the whole studio). What is done to its clients
 * (broadcasts, bulk actions) needs that action's own permission.
 */
const segmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const access = { permission: 'clients.read' as const };
  // The segments are the studio's, shared by every staff member: changing them is its own permission.
  const editing = { permission: 'segments.edit' as const };

  app.get(
    `${ADMIN}/segments`,
    {
      config: access,
      schema: {
        tags,
        summary: 'Saved segments, each with its count (ra-data-simple-rest getList/getMany)',
        querystring: SegmentListQuery,
        response: { 200: z.array(Segment), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { sort = ['name', 'ASC'], filter = {} } = request.query;
      const range = request.query.range ?? [0, MAX_SEGMENTS - 1];
      const { rows, total } = await listSegments(app.database, { sort, range, ids: filter.id }, app.clock.now());
      reply.header('content-range', contentRange('segments', range[0], rows.length, total));
      return rows;
    },
  );

  app.post(
    `${ADMIN}/segments/preview`,
    {
      config: access,
      schema: {
        tags,
        summary: 'How many clients a filter selects now, and the first few of them',
        description: `\`count\` is exact up to 10,000 clients; above that it is the database planner's estimate and \`count_is_estimate\` is true. \`sample\`: the first ${PREVIEW_SAMPLE} by id.`,
        body: SegmentPreviewBody,
        response: { 200: SegmentPreview, ...errorResponses },
      },
    },
    async (request) => previewSegment(app.database, request.body.filter, app.clock.now()),
  );

  app.get(
    `${ADMIN}/at-risk`,
    {
      config: access,
      schema: {
        tags,
        summary: 'The at-risk list: active before the last AT_RISK_QUIET_DAYS days, not since; most valuable first',
        description:
          "Clients with a signed-in class or a stream in the AT_RISK_ACTIVE_DAYS days (default 60) before the last AT_RISK_QUIET_DAYS days (default 14) and none since. `filter` is the same list as a client filter (for a broadcast or a bulk action). Paged through its first 10,000 clients (page × perPage ≤ 10,000, 400 beyond); `total` is exact up to 10,000 and the planner's estimate above (`total_is_estimate`).",
        querystring: AtRiskQuery,
        response: { 200: AtRiskPage, ...errorResponses },
      },
    },
    async (request) =>
      atRiskPage(
        app.database,
        { activeDays: app.config.AT_RISK_ACTIVE_DAYS, quietDays: app.config.AT_RISK_QUIET_DAYS },
        { page: request.query.page ?? 1, perPage: request.query.perPage ?? AT_RISK_DEFAULT_PER_PAGE },
        app.clock.now(),
      ),
  );

  app.get(
    `${ADMIN}/segments/:id`,
    { config: access, schema: { tags, summary: 'One saved segment with its count', params: SegmentParams, response: { 200: Segment, ...errorResponses } } },
    async (request) => getSegment(app.database, request.params.id, app.clock.now()),
  );

  app.post(
    `${ADMIN}/segments`,
    {
      config: editing,
      schema: { tags, summary: 'Save a filter under a name (409 when the name is taken)', body: SegmentBody, response: { 200: Segment, ...errorResponses } },
    },
    async (request) => createSegment(app.database, request.body, auditActor(request)),
  );

  app.put(
    `${ADMIN}/segments/:id`,
    {
      config: editing,
      schema: {
        tags,
        summary: 'Rename a segment or change its filter',
        params: SegmentParams,
        body: SegmentBody,
        response: { 200: Segment, ...errorResponses },
      },
    },
    async (request) => updateSegment(app.database, request.params.id, request.body, auditActor(request)),
  );

  app.delete(
    `${ADMIN}/segments/:id`,
    { config: editing, schema: { tags, summary: 'Delete a saved segment', params: SegmentParams, response: { 200: Segment, ...errorResponses } } },
    async (request) => deleteSegment(app.database, request.params.id, auditActor(request)),
  );
};

export default segmentRoutes;
