import { z } from 'zod';
import { AuthenticationResponse } from './passkeys';

/** Two-step sign-in and re-authentication (docs/security-signin.md#two-step-sign-in). */

/** GET /api/auth/two-step: the signed-in member's own two-step state. */
export const TwoStepStatus = z.object({
  enabled: z.boolean(),
  enabled_at: z.iso.datetime({ offset: true }).nullable(),
  recovery_codes_left: z.number().int(),
  required: z.boolean().describe('an owner requires two-step for every staff account'),
});
export type TwoStepStatus = z.infer<typeof TwoStepStatus>;

/** POST /api/auth/two-step/totp: a new secret, to be confirmed with a code. */
export const TotpSetup = z.object({
  secret: z.string().describe('base32, for typing into the app'),
  otpauth_uri: z.string().describe('what the QR code holds'),
  qr_svg: z.string().describe('the otpauth URI as an SVG QR code'),
});
export type TotpSetup = z.infer<typeof TotpSetup>;

// Long enough for any code with spaces; the server tells a malformed one from a wrong one itself.
const typedCode = z.string().max(1024);

export const TotpConfirmRequest = z.object({ code: typedCode });
export const TotpConfirmResponse = z.object({ recovery_codes: z.array(z.string()).describe('shown once; only their hashes are kept') });
export type TotpConfirmResponse = z.infer<typeof TotpConfirmResponse>;

/**
 * The password, a code (authenticator or recovery), or a passkey's answer to
 * POST /api/auth/passkeys/reauth-options: what re-authentication and turning two-step off take.
 */
export type Proof = { password: string } | { code: string } | { passkey: AuthenticationResponse };
export const ProofRequest = z
  .object({ password: z.string().max(1024).optional(), code: typedCode.optional(), passkey: AuthenticationResponse.optional() })
  .refine((body) => [body.password, body.code, body.passkey].filter((given) => given !== undefined).length === 1, 'send one of password, code or passkey');
export type ProofRequest = z.infer<typeof ProofRequest>;

export const ReauthResponse = z.object({
  reauthenticated: z.literal(true),
  valid_until: z.iso.datetime({ offset: true }).describe('sensitive actions need no new check until then'),
});
export type ReauthResponse = z.infer<typeof ReauthResponse>;

/** 403 from a sensitive action whose session has not been checked within REAUTH_MINUTES. */
export const ReauthRequired = z.object({ message: z.string(), reauth_required: z.literal(true) });
/** 403 from any call but the set-up's while an owner requires two-step and the account has none. */
export const TwoStepSetupRequired = z.object({ message: z.string(), two_step_setup_required: z.literal(true) });

/** GET/PUT /api/admin/v1/security-settings (owners): the owner's rule. */
export const SecuritySettings = z.object({
  require_two_step: z.boolean().describe('every staff account must have two-step sign-in; one without it sets it up before anything else'),
});
export type SecuritySettings = z.infer<typeof SecuritySettings>;

/** One sign-in or failed attempt of an account (GET /api/admin/v1/account/sign-ins, /staff/{id}/sign-ins), from the audit log. */
export const SignInEntry = z.object({
  id: z.number().int(),
  at: z.iso.datetime({ offset: true }),
  outcome: z.enum(['signed_in', 'failed']),
  method: z.string().nullable().describe('password, oidc, passkey; with second_step: totp, recovery_code, idp, passkey'),
  second_step: z.string().nullable(),
  reason: z.string().nullable().describe('why a failed attempt failed: wrong password, wrong code, code already used…'),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type SignInEntry = z.infer<typeof SignInEntry>;
/** The most recent entries one listing shows. */
export const SIGN_IN_HISTORY_LIMIT = 50;
