import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { NONCE_PLACEHOLDER } from '../lib/security';

/**
 * Serves the built console (dist/) with an SPA fallback: a browser asking for any non-API page
 * gets index.html and react-router takes it from there.
 */
export async function registerConsole(app: FastifyInstance) {
  const root = app.config.consoleDir;
  const indexFile = path.join(root, 'index.html');
  const built = fs.existsSync(indexFile);
  const indexHtml = built ? fs.readFileSync(indexFile, 'utf8') : '';
  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      index: false,
      preCompressed: true,
      // index.html is only served below, with this response's CSP nonce filled in.
      allowedPath: (pathName) => !pathName.endsWith('/index.html'),
      setHeaders(res, filePath) {
        // Vite puts a content hash in every asset name, so those never change.
        res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const apiStarts = [`${app.pathPrefix}/api/`, `${app.pathPrefix}/1/`];
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const isApi = apiStarts.some((start) => pathname.startsWith(start));
    if (!isApi && request.method === 'GET' && (request.headers.accept ?? '').includes('text/html')) {
      if (!built) return reply.status(404).send({ message: 'The console is not built: run `npm run build`, then restart the server.' });
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html').send(indexHtml.replaceAll(NONCE_PLACEHOLDER, reply.cspNonce()));
    }
    return reply.status(404).send({ message: `No such route: ${request.method} ${pathname}` });
  });
}
