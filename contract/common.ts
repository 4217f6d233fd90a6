import { z } from 'zod';

/** Every 4xx/5xx answer of our server has this shape. */
export const ErrorResponse = z.object({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  // 403s of the two-step rules (contract/twoStep.ts): the console then asks for a check or sends to set-up.
  reauth_required: z.literal(true).optional(),
  two_step_setup_required: z.literal(true).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** The spec's calls that report problems in-band answer `errors: [...]` (strings or objects). */
export const InBandErrors = z.array(z.unknown());

export const errorResponses = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
  500: ErrorResponse,
} as const;

/** Only that the server is up and reaches its database: nothing a stranger could use. */
export const HealthResponse = z.object({ status: z.literal('ok') }).strict();
