import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/**
 * How deeply a JSON body may nest arrays and objects (docs/security.md). No call of ours needs more
 * than a few levels; the checks that walk a parsed body (NUL and surrogates) recurse, so a deeper one
 * is refused on its text, before it is parsed or walked.
 */
export const MAX_JSON_DEPTH = 64;

export const tooDeepMessage = `Invalid request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`;

/** Whether `text` (JSON, valid or not) opens more than `max` arrays or objects inside one another; one pass, no recursion. */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** JSON.parse behind the depth check: a too deep body is a 400 naming the limit. */
export function parseJsonWithinDepth(text: string, parse: (text: string) => unknown = JSON.parse): unknown {
  if (nestsDeeperThan(text)) throw new HttpError(400, tooDeepMessage);
  return parse(text);
}

/**
 * Fastify's own JSON parser (prototype-poisoning checks included) behind the depth check, for every
 * route of `app` and of the plugins it registers.
 */
export function registerJsonDepthLimit(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string)) {
      done(new HttpError(400, tooDeepMessage), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}
