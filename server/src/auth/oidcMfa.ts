/**
 * Whether an identity provider says a sign-in used more than a password (the ID token of OpenID Connect Core 1.0:
 * `amr`, the methods, RFC 8176's names; `acr`, the class). Counts as the console's two-step.
 */

// RFC 8176: "mfa" says so outright; a one-time code, a hardware or software key, an SMS or a
// call are a second factor beside the password.
const SECOND_FACTOR_METHODS = new Set(['mfa', 'otp', 'hwk', 'swk', 'sms', 'tel']);
// Classes providers use for multi-factor sign-ins: NIST 800-63 levels 2 and 3, OpenID PAPE's
// multi-factor policies, Okta's and Azure's names, and REFEDS MFA.
const MFA_CLASSES = [/(^|[:/])aal[23]$/i, /multi-factor/i, /phrh?$/, /loa:2fa/i, /^https:\/\/refeds\.org\/profile\/mfa$/, /(^|[:/])mfa$/i];

export function idpSaysTwoStep(claims: Record<string, unknown>): boolean {
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((value): value is string => typeof value === 'string').map((value) => value.toLowerCase()) : [];
  if (amr.some((method) => SECOND_FACTOR_METHODS.has(method))) return true;
  const acr = typeof claims.acr === 'string' ? claims.acr : '';
  return acr !== '' && MFA_CLASSES.some((pattern) => pattern.test(acr));
}
