import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './sessions';

/**
 * Default-deny: every path under {prefix}/api/ and the search protocol's /1/ needs a staff
 * session unless its route says `config: { public: true }`. Unknown API paths answer 401 too,
 * so a route added later cannot slip past by accident.
 */
export function registerSessionGuard(app: FastifyInstance) {
  const guarded = [`${app.pathPrefix}/api/`, `${app.pathPrefix}/1/`];
  app.decorateRequest('staff', null);
  app.decorateRequest('sessionId', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    const needsSession = guarded.some((start) => path.startsWith(start));
    if (!needsSession) return;
    const resolved = await app.sessions.resolve(request.cookies[SESSION_COOKIE]);
    request.staff = resolved?.user ?? null;
    request.sessionId = resolved?.sessionId ?? null;
    if (request.routeOptions.config?.public) return;
    if (!request.staff) {
      const message = 'Authentication required: sign in at the login page first.';
      // The search protocol's clients read Algolia's error shape, which also carries the status.
      return reply.status(401).send(path.startsWith(guarded[1]!) ? { message, status: 401 } : { message });
    }
  });
}
