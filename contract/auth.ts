import { z } from 'zod';
import { PERMISSION_NAMES, ROLES } from './permissions';

export const SignedInUser = z.object({
  picture: z.string(),
  nickname: z.string(),
  email: z.string(),
  // Ours (the spec has neither): a backend without roles leaves them out and the console shows everything.
  role: z.enum(ROLES).optional().describe('contract/permissions.ts'),
  permissions: z
    .array(z.enum(PERMISSION_NAMES as [string, ...string[]]))
    .optional()
    .describe('what the role allows; the console hides the rest'),
});
export type SignedInUser = z.infer<typeof SignedInUser>;

/** GET /api/isAuthenticated: always 200. */
export const IsAuthenticatedResponse = z.object({
  isAuthenticated: z.boolean(),
  user: SignedInUser.nullable(),
});
export type IsAuthenticatedResponse = z.infer<typeof IsAuthenticatedResponse>;

export const LoginForm = z.object({
  // PostgreSQL text cannot hold NUL, and no e-mail address holds a control character.
  email: z
    .string()
    .trim()
    .max(320)
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'must not contain control characters')
    .default(''),
  password: z.string().max(1024).default(''),
  /** The console page to come back to (server/src/auth/returnPath.ts drops anything but a path of ours). */
  next: z.string().max(4096).optional(),
});
