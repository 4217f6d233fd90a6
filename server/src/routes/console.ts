import fs from 'node:fs';
import path from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { markRoutesPublic } from '../auth/guard';
import { SESSION_COOKIE } from '../auth/sessions';
import { publicProfile } from '../staff/accounts';
import { NONCE_PLACEHOLDER } from '../lib/security';
import { openingPagePreloads } from './openingPages';
import { RUNTIME_CONFIG_ELEMENT_ID, SEARCH_HOST_SELF, type RuntimeConfig } from '@contract/search';
import type { IsAuthenticatedResponse } from '@contract/auth';
import { SESSION_STATE_ELEMENT_ID } from '@contract/pageState';

/**
 * Settings the console reads at start, so `npm ci && npm start` needs no build-time variables:
 * the search endpoint's application id and search-only key (public like any Algolia search key;
 * our endpoint also wants a staff session), or hosted Algolia's when ALGOLIA_* are set.
 */
export function runtimeConfig(app: FastifyInstance): RuntimeConfig {
  const { algolia } = app.config;
  return {
    algolia: algolia
      ? { appId: algolia.appId, searchKey: algolia.searchKey, host: '' }
      : { appId: app.config.SEARCH_APP_ID, searchKey: app.integrationKeys.searchApiKey.value, host: SEARCH_HOST_SELF },
    time_zone: app.config.STUDIO_TIME_ZONE,
  };
}

// JSON is not executed (no nonce needed); escaping '<' keeps it from closing the element.
const jsonElement = (id: string, value: unknown) => `<script type="application/json" id="${id}">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;

/**
 * Serves the built console (dist/) with an SPA fallback: a browser asking for any non-API page
 * gets index.html and react-router takes it from there. `/` is the console for any client
 * (monitors and curl send no Accept-Encoding and no Accept: text/html).
 */
export async function registerConsole(app: FastifyInstance) {
  const root = app.config.consoleDir;
  const indexFile = path.join(root, 'index.html');
  const built = fs.existsSync(indexFile);
  const indexHtml = built ? fs.readFileSync(indexFile, 'utf8').replace('</head>', `${jsonElement(RUNTIME_CONFIG_ELEMENT_ID, runtimeConfig(app))}</head>`) : '';
  /**
   * The page carries /api/isAuthenticated's answer (contract/pageState.ts): a cold load renders
   * without that round trip. The answer is personal, so the page is never stored by a cache.
   */
  const preloadsFor = built ? openingPagePreloads(root, indexHtml, NONCE_PLACEHOLDER) : () => '';
  const sendConsole = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!built) return reply.status(404).send({ message: 'The console is not built: run `npm run build`, then restart the server.' });
    const resolved = await app.sessions.resolve(request.cookies[SESSION_COOKIE]);
    const session: IsAuthenticatedResponse = resolved ? { isAuthenticated: true, user: publicProfile(resolved.user) } : { isAuthenticated: false, user: null };
    reply.header('cache-control', 'no-store');
    const pathname = request.url.split('?')[0]!;
    const pagePath = pathname.startsWith(app.pathPrefix) ? pathname.slice(app.pathPrefix.length) || '/' : pathname;
    // A signed-out browser leaves for the login page at once: it needs no page code.
    const preloads = session.isAuthenticated ? preloadsFor(pagePath) : '';
    const html = indexHtml.replace('</head>', `${preloads}${jsonElement(SESSION_STATE_ELEMENT_ID, session)}</head>`);
    return reply.type('text/html').send(html.replaceAll(NONCE_PLACEHOLDER, reply.cspNonce()));
  };
  await app.register(async (files) => {
    markRoutesPublic(files);
    // What the file server refuses (a traversal, a folder) is simply not one of our files.
    files.setErrorHandler((error: FastifyError, _request, reply) => {
      if ((error.statusCode ?? 500) < 500) return reply.callNotFound();
      throw error;
    });
    files.get('/', { schema: { hide: true } }, async (request, reply) => sendConsole(request, reply));
    if (built) {
      await files.register(fastifyStatic, {
        root,
        prefix: '/',
        index: false,
        preCompressed: true,
        // index.html is only served by sendConsole, with this response's CSP nonce filled in.
        // The build manifest (.vite/) is the server's own reading, not one of the console's files.
        allowedPath: (pathName) => !pathName.endsWith('/index.html') && !pathName.startsWith('/.vite/'),
        setHeaders(res, filePath) {
          // Vite puts a content hash in every asset name, so those never change.
          res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }
  });
  const apiStarts = [`${app.pathPrefix}/api/`, `${app.pathPrefix}/1/`];
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const isApi = apiStarts.some((start) => pathname.startsWith(start));
    if (!isApi && request.method === 'GET' && (request.headers.accept ?? '').includes('text/html')) return sendConsole(request, reply);
    return reply.status(404).send({ message: `No such route: ${request.method} ${pathname}` });
  });
}
