import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@contract/common';
import { contentRange, Int4IdParams } from '@contract/raSimpleRest';
import { AdminVideo, AdminVideoListQuery, AdminVideoUpdate, VideoCategory, VideosResponse } from '@contract/videos';
import { auditActor } from '../audit/record';
import { createSpecVideoList } from '../videos/specVideoList';
import { getAdminVideo, listAdminVideos, listVideoCategories } from '../videos/adminVideos';
import { removeVideo, saveVideo } from '../videos/edits';

const ADMIN = '/api/admin/v1';

const videoRoutes: FastifyPluginAsyncZod = async (app) => {
  const specVideoList = createSpecVideoList(app.database);
  app.get(
    '/api/client/v1/videos',
    {
      config: { permission: 'videos.edit' },
      schema: {
        tags: ['videos'],
        summary: 'Every video that is not deleted (spec §7, Video Manager)',
        description: 'Carries an ETag; a request with a matching If-None-Match gets 304 and no body.',
        response: { 200: VideosResponse, 304: z.null().describe('The library has not changed'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const list = await specVideoList();
      const etag = `"videos-${list.version}"`;
      // The console revalidates instead of downloading the whole library again.
      reply.header('etag', etag).header('cache-control', 'private, no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      // Already serialized and checked against the contract: Fastify sends a JSON string as it is.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(list.body);
    },
  );

  app.get(
    `${ADMIN}/videos`,
    {
      config: { permission: 'videos.edit' },
      schema: {
        tags: ['videos (extension)'],
        summary: 'Video Manager list: server-side paging, sorting and filters (ra-data-simple-rest getList/getMany)',
        description:
          'Live videos by default; filter {"deleted":true} lists only deleted ones, {"id":[..]} exactly those. ' +
          'The total is in Content-Range: videos 0-24/319.',
        querystring: AdminVideoListQuery,
        response: { 200: z.array(AdminVideo), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { sort = ['title', 'ASC'], filter = {} } = request.query;
      // getMany sends only {"id":[..]}: answer every one of them, not a first page.
      const range = request.query.range ?? [0, filter.id?.length ? filter.id.length - 1 : 24];
      const { rows, total } = await listAdminVideos(app.database, { sort, range, filter });
      reply.header('content-range', contentRange('videos', range[0], rows.length, total));
      return rows;
    },
  );

  app.get(
    `${ADMIN}/videos/:id`,
    {
      config: { permission: 'videos.edit' },
      schema: { tags: ['videos (extension)'], summary: 'One video, deleted or not', params: Int4IdParams, response: { 200: AdminVideo, ...errorResponses } },
    },
    async (request) => getAdminVideo(app.database, request.params.id),
  );

  app.put(
    `${ADMIN}/videos/:id`,
    {
      config: { permission: 'videos.edit' },
      schema: {
        tags: ['videos (extension)'],
        summary: 'Save what staff edit: title, instructor, category, access level, enabled; deleted_at null restores',
        description: 'Fields left out are kept; read-only fields of a whole record (thumbnail, Vimeo data, dates) are ignored.',
        params: Int4IdParams,
        body: AdminVideoUpdate,
        response: { 200: AdminVideo, ...errorResponses },
      },
    },
    async (request) => saveVideo(app.database, request.params.id, request.body, auditActor(request)),
  );

  app.delete(
    `${ADMIN}/videos/:id`,
    {
      config: { permission: 'videos.edit' },
      schema: {
        tags: ['videos (extension)'],
        summary: 'Delete a video: hidden from the app and from favorites options, restorable with PUT deleted_at null',
        params: Int4IdParams,
        response: { 200: AdminVideo, ...errorResponses },
      },
    },
    async (request) => removeVideo(app.database, request.params.id, auditActor(request)),
  );

  app.get(
    `${ADMIN}/video-categories`,
    {
      config: { permission: 'videos.edit' },
      schema: {
        tags: ['videos (extension)'],
        summary: 'Video categories, for the edit form and the list filter',
        response: { 200: z.array(VideoCategory), ...errorResponses },
      },
    },
    async (_request, reply) => {
      const rows = await listVideoCategories(app.database);
      reply.header('content-range', contentRange('video-categories', 0, rows.length, rows.length));
      return rows;
    },
  );
};

export default videoRoutes;
