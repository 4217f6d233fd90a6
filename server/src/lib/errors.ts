import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { CircuitOpenError } from './circuitBreaker';
import { DatabaseStoppedError } from '../db/pgliteThread';

/** An error whose message is safe to show to the caller. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly errors?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);

// PostgreSQL's "invalid byte sequence" (22021) and "unsupported Unicode escape" (22P05): text it cannot store.
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);

/** Whether the database refused a value as text it cannot store (a NUL or an unpaired surrogate that got past the request check). */
export const isUnstorableTextError = (error: unknown) => UNSTORABLE_TEXT_CODES.has(String((error as { code?: unknown } | null)?.code ?? ''));
export const notFound = (message: string) => new HttpError(404, message);

/**
 * The 400 answer for a request that failed its zod schema, naming each bad field
 * (`body.message: must not be empty`); undefined for any other error. Routes that report
 * refusals in-band (attachValidation) use it too, so every 400 words problems the same way.
 */
export function describeValidationError(error: unknown): { message: string; errors: { path: string; message: string }[] } | undefined {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  const errors = error.validation.map((issue) => {
    const where = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const path = [error.validationContext, where].filter(Boolean).join('.');
    return { path, message: issue.message ?? 'is invalid' };
  });
  const summary = errors.map((e) => `${e.path || error.validationContext}: ${e.message}`).join('; ');
  return { message: `Invalid request: ${summary}`, errors };
}

/** One error answer for the whole server: `{ message, errors? }`, and no internals on a 5xx. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const invalid = describeValidationError(error);
    if (invalid) return reply.status(400).send(invalid);
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, cause: error.cause }, 'response did not match its schema');
      return reply.status(500).send({ message: 'Internal server error' });
    }
    if (error instanceof CircuitOpenError) {
      reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryInMs / 1000))));
      return reply.status(503).send({ message: error.message });
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
    }
    // Last line of defence: the request check names the field; this only keeps a missed one from being a 500.
    if (isUnstorableTextError(error)) {
      request.log.warn({ err: error }, 'the database refused text the request check let through');
      return reply.status(400).send({ message: 'Invalid request: a text value contains characters that cannot be stored (NUL or an unpaired surrogate)' });
    }
    // PGlite's thread died (a wrapper may carry the driver's error as its cause): 503 until the server restarts.
    if (error instanceof DatabaseStoppedError || error.cause instanceof DatabaseStoppedError) {
      request.log.error({ err: error }, 'the embedded database stopped');
      return reply.status(503).send({ message: 'Service unavailable' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status === 503 ? 503 : 500).send({ message: status === 503 ? 'Service unavailable' : 'Internal server error' });
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported media type) carry safe messages.
    return reply.status(status).send({ message: error.message });
  });
}
