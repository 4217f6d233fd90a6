import { z } from 'zod';

/** Passkeys (WebAuthn) of staff accounts (docs/security-signin.md#passkeys). */

/** One of the member's passkeys, as the user menu lists it. */
export const Passkey = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }).nullable(),
  backed_up: z.boolean().describe('synced by the platform (iCloud Keychain, Google Password Manager…) rather than bound to one device'),
});
export type Passkey = z.infer<typeof Passkey>;

export const PASSKEY_NAME_MAX = 60;
export const PasskeyName = z
  .string()
  .trim()
  .min(1, 'give the passkey a name, like "Work laptop"')
  .max(PASSKEY_NAME_MAX, `must be at most ${PASSKEY_NAME_MAX} characters`)
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not hold control characters');

// What browsers send is base64url; a few kilobytes at most (post-quantum ML-DSA keys and signatures, offered
// where the server's runtime supports them, and attestations with certificates are the largest).
const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');
const clientExtensionResults = z.record(z.string(), z.unknown()).default({});

/** navigator.credentials.create()'s answer, as @simplewebauthn/browser's startRegistration returns it. */
export const RegistrationResponse = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(16_384),
    transports: z.array(z.string().max(32)).max(10).optional(),
    authenticatorData: b64url(8192).optional(),
    publicKey: b64url(8192).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults,
});

/** navigator.credentials.get()'s answer, as @simplewebauthn/browser's startAuthentication returns it. */
export const AuthenticationResponse = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(8192),
    signature: b64url(8192),
    userHandle: b64url(128).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults,
});
export type AuthenticationResponse = z.infer<typeof AuthenticationResponse>;

/** POST /api/auth/passkeys: the new passkey's name and the browser's answer to the registration options. */
export const PasskeyAddRequest = z.object({ name: PasskeyName, response: RegistrationResponse });

/** POST /login/passkey: a passkey's answer to the sign-in options, and where to go after. */
export const PasskeySignInRequest = z.object({ response: AuthenticationResponse, next: z.string().max(2048).optional() });
export const PasskeySignInResponse = z.object({ redirect: z.string().describe('where the browser goes now, signed in') });

/** The options the browser passes to navigator.credentials (WebAuthn's JSON forms); opaque to the console. */
export const PasskeyOptions = z.record(z.string(), z.unknown());
