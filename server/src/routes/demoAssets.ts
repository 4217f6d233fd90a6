import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '@contract/common';
import { thumbnailSvg } from '../../seed/catalogue';

const ThumbnailQuery = z.object({
  t: z.string().max(80, 't (the title) must be at most 80 characters').default(''),
  c: z.string().max(40, 'c (the category) must be at most 40 characters').default(''),
  k: z.string().regex(/^[0-9a-fA-F]{6}$/, 'k must be a colour as 6 hex digits, e.g. e4572e'),
});

/**
 * The demo library's thumbnails (server/seed/catalogue.ts): drawn from the query, no database and
 * no personal data, so public like the console's own files, and cached for good by browsers.
 */
const demoAssetRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/demo/thumbnail.svg',
    {
      config: { public: true },
      schema: {
        tags: ['ops'],
        summary: 'A demo video thumbnail (SVG) for the sandbox video library',
        querystring: ThumbnailQuery,
        response: { 200: z.string(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { t, c, k } = request.query;
      reply.header('content-type', 'image/svg+xml; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable');
      return thumbnailSvg(t, c, `#${k.toLowerCase()}`);
    },
  );
};

export default demoAssetRoutes;
