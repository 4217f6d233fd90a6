import { z } from 'zod';

export const SignedInUser = z.object({
  picture: z.string(),
  nickname: z.string(),
  email: z.string(),
});
export type SignedInUser = z.infer<typeof SignedInUser>;

/** GET /api/isAuthenticated (spec §7): always 200. */
export const IsAuthenticatedResponse = z.object({
  isAuthenticated: z.boolean(),
  user: SignedInUser.nullable(),
});
export type IsAuthenticatedResponse = z.infer<typeof IsAuthenticatedResponse>;

export const LoginForm = z.object({
  email: z.string().trim().max(320).default(''),
  password: z.string().max(1024).default(''),
});
