import type { FastifyRequest } from 'fastify';

const PERSONAL = /@|%40/;

/**
 * A URL as the logs may keep it: query values (search text, filters with names and e-mails) are
 * dropped, keeping the parameter names, and a path segment holding an e-mail is masked.
 */
export function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const maskedPath = path
    .split('/')
    .map((segment) => (PERSONAL.test(segment) ? ':redacted' : segment))
    .join('/');
  if (queryAt < 0) return maskedPath;
  const names = [...new Set(new URLSearchParams(url.slice(queryAt + 1)).keys())];
  return names.length ? `${maskedPath}?${names.map((name) => `${encodeURIComponent(name)}=…`).join('&')}` : maskedPath;
}

/** pino's view of a request: no personal data from the URL, no headers. */
export function requestLogView(request: FastifyRequest) {
  return { method: request.method, url: loggableUrl(request.url), route: request.routeOptions?.url, remoteAddress: request.ip };
}
