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
    // Answers hold client data unless a route says otherwise (static files, thumbnails, the video
    // list's ETag): no browser or shared cache keeps them.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    const type = String(reply.getHeader('content-type') ?? '');
    // Swagger UI sends a policy of its own.
    if (type.startsWith('text/html') && !request.url.startsWith(docsPrefix)) {
      reply.header('content-security-policy', contentSecurityPolicy(reply.cspNonce()));
    }
  });

  // A request carrying another Host was meant for another site, or is a DNS-rebinding page
  // talking to us under its own name: with PUBLIC_URL we know our name and refuse the rest.
  if (app.config.PUBLIC_URL) {
    const publicUrl = new URL(app.config.PUBLIC_URL);
    const scheme = publicUrl.protocol.replace(':', '');
    const ownHost = normaliseHost(publicUrl.host, scheme);
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config?.anyHost) return;
      // The scheme is PUBLIC_URL's: behind a TLS proxy the request itself arrives as plain http.
      if (normaliseHost(request.host, scheme) !== ownHost) {
        return reply.status(421).send({ message: `Misdirected request: this server answers only for ${ownHost} (PUBLIC_URL).` });
      }
    });
  }

  // GET calls that change something (the spec keeps the syncs GET) must come from a page's script,
  // never from a navigation or another site's page: the session cookie rides along with both.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config?.changesState || STATE_CHANGING.has(request.method)) return;
    if (!requestedByOwnScript(app, request)) {
      return reply
        .status(403)
        .send({ message: 'Cross-site request refused: this call changes data and must come from the console itself, not from a link or another site.' });
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

/**
 * A fetch from one of our own pages, by the browser's Fetch Metadata: same-origin and not a
 * navigation. Browsers without it send a Referer of ours or none; callers that are not browsers
 * (scripts with a session cookie) send neither header and pass.
 */
export function requestedByOwnScript(app: FastifyInstance, request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (request.headers['sec-fetch-mode'] === 'navigate' || request.headers['sec-fetch-dest'] === 'document') return false;
  if (site !== undefined) return site === 'same-origin';
  return refererIsOurs(app, request) !== false;
}

/**
 * A navigation the staff member made themselves: from one of our pages, or typed / bookmarked
 * (`Sec-Fetch-Site: none`). Without Fetch Metadata only a Referer of our own origin counts.
 */
export function navigatedFromOurPages(app: FastifyInstance, request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  return refererIsOurs(app, request) === true;
}

/** true / false for a Referer of ours / of another origin; undefined without a usable one. */
function refererIsOurs(app: FastifyInstance, request: FastifyRequest): boolean | undefined {
  const referer = request.headers.referer;
  if (!referer) return undefined;
  const origin = originOf(referer);
  return origin !== '' && sameOrigin(app, request, origin);
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

/** host[:port] in lower case, without the scheme's default port. */
function normaliseHost(host: string, protocol: string): string {
  const lower = host.toLowerCase();
  const port = DEFAULT_PORTS[protocol];
  return port && lower.endsWith(`:${port}`) ? lower.slice(0, -(port.length + 1)) : lower;
}

function sameOrigin(app: FastifyInstance, request: FastifyRequest, origin: string): boolean {
  const own = new Set([originOf(`${request.protocol}://${request.host}`)]);
  if (app.config.PUBLIC_URL) own.add(new URL(app.config.PUBLIC_URL).origin);
  return own.has(originOf(origin));
}

/** The URL's origin as browsers write it (no default port); '' when it is not a URL. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}
