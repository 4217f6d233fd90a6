import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const NONCE_PLACEHOLDER = 'CSP_NONCE_PLACEHOLDER';

declare module 'fastify' {
  interface FastifyReply {
    /** A fresh nonce for this response's inline <script>/<style> (CSP). */
    cspNonce(): string;
  }
}

const nonces = new WeakMap<FastifyReply, string>();

/**
 * CSP for our HTML pages: scripts and <style> elements only with this response's nonce (MUI's
 * Emotion stamps it on what it injects), no eval. Style attributes stay allowed: MUI sets them.
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src-elem 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    // Thumbnails (Vimeo), avatars (Gravatar, the identity provider's pictures) and inline SVG data.
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    // Hosted Algolia, when configured, is called from the browser.
    "connect-src 'self' https://*.algolia.net https://*.algolianet.com",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function registerSecurity(app: FastifyInstance) {
  app.decorateReply('cspNonce', function (this: FastifyReply) {
    let nonce = nonces.get(this);
    if (!nonce) {
      nonce = randomBytes(16).toString('base64');
      nonces.set(this, nonce);
    }
    return nonce;
  });

  const docsPrefix = `${app.pathPrefix}/api/docs`;
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (isHttps(app, request)) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    const type = String(reply.getHeader('content-type') ?? '');
    // Swagger UI sends a policy of its own.
    if (type.startsWith('text/html') && !request.url.startsWith(docsPrefix)) {
      reply.header('content-security-policy', contentSecurityPolicy(reply.cspNonce()));
    }
  });

  // SameSite=Lax already keeps the session cookie off cross-site POSTs; this refuses them outright,
  // also for requests that carry no cookie (sign-in) and for browsers that ignore SameSite.
  app.addHook('onRequest', async (request, reply) => {
    if (!STATE_CHANGING.has(request.method)) return;
    const site = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    const foreignOrigin = origin !== undefined && origin !== 'null' && !sameOrigin(app, request, origin);
    if (site === 'cross-site' || foreignOrigin || origin === 'null') {
      return reply.status(403).send({ message: 'Cross-site request refused: this call must come from the console itself.' });
    }
  });
}

export function isHttps(app: FastifyInstance, request: FastifyRequest): boolean {
  return request.protocol === 'https' || (app.config.PUBLIC_URL ?? '').startsWith('https://');
}

function sameOrigin(app: FastifyInstance, request: FastifyRequest, origin: string): boolean {
  const own = new Set([`${request.protocol}://${request.host}`]);
  if (app.config.PUBLIC_URL) own.add(new URL(app.config.PUBLIC_URL).origin);
  return own.has(origin);
}
