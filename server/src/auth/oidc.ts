import * as client from 'openid-client';
import type { Config } from '../config';
import { createCircuitBreaker } from '../lib/circuitBreaker';
import { claimValues, hasClaim } from './oidcRoles';
import { idpSaysTwoStep } from './oidcMfa';

export interface OidcProfile {
  subject: string;
  email: string;
  nickname: string;
  picture: string | null;
  /** The values of OIDC_ROLE_CLAIM, when it is configured; null otherwise. */
  roleClaimValues: string[] | null;
  /** The ID token's amr/acr say the sign-in used a second factor. */
  secondStep: boolean;
}

export interface OidcTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export class OidcRefusal extends Error {}

/**
 * openid-client waits 30 s by default; an issuer that accepts connections but never answers would
 * hold every GET /login that long before the 503 page. Also applies to the code exchange and userinfo.
 */
const IDP_TIMEOUT_SECONDS = 5;

/** Authorization code + PKCE against the configured issuer (openid-client v6). */
export function createOidc(settings: NonNullable<Config['oidc']>) {
  let discovered: Promise<client.Configuration> | undefined;
  // An identity provider that is down would cost every sign-in attempt the full timeout.
  const breaker = createCircuitBreaker({ service: 'The identity provider', failureThreshold: 3, coolDownMs: 30_000 });
  const configuration = () => {
    discovered ??= breaker
      .run(() =>
        client.discovery(new URL(settings.issuerUrl), settings.clientId, settings.clientSecret, undefined, {
          timeout: IDP_TIMEOUT_SECONDS,
          // A plain-http issuer only makes sense on a developer's machine or inside tests.
          execute: settings.issuerUrl.startsWith('http://') ? [client.allowInsecureRequests] : [],
        }),
      )
      .catch((error) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  return {
    async start(redirectUri: string): Promise<{ url: string; transaction: OidcTransaction }> {
      const config = await configuration();
      const transaction = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: ['openid', 'profile', 'email', ...settings.extraScopes].join(' '),
        code_challenge: await client.calculatePKCECodeChallenge(transaction.codeVerifier),
        code_challenge_method: 'S256',
        state: transaction.state,
        nonce: transaction.nonce,
      });
      return { url: url.href, transaction };
    },

    async finish(currentUrl: URL, transaction: OidcTransaction): Promise<OidcProfile> {
      const config = await configuration();
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      let info: Record<string, unknown> = { ...claims };
      // Many providers put e-mail or groups only in userinfo, not in the ID token.
      const roleClaim = settings.roleClaim?.name;
      if ((!claims.email || (roleClaim && !hasClaim(claims, roleClaim))) && tokens.access_token) {
        info = { ...info, ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)) };
      }
      const email = typeof info.email === 'string' ? info.email.toLowerCase() : '';
      if (!email) throw new OidcRefusal('Your identity provider did not share an e-mail address, so you cannot be signed in.');
      if (info.email_verified === false) throw new OidcRefusal(`The e-mail address ${email} is not verified at your identity provider.`);
      // The last @: with split('@')[1], "someone@studio.test@elsewhere.test" would pass for studio.test.
      const at = email.lastIndexOf('@');
      const domain = at > 0 ? email.slice(at + 1) : '';
      if (!settings.allowedEmails.includes(email) && !settings.allowedDomains.includes(domain)) {
        throw new OidcRefusal(`${email} is not allowed to use this console. Ask an administrator to add it.`);
      }
      const nickname = [info.nickname, info.name, info.preferred_username].find((v) => typeof v === 'string' && v) as string | undefined;
      return {
        subject: claims.sub,
        email,
        nickname: nickname ?? email.split('@')[0]!,
        picture: typeof info.picture === 'string' ? info.picture : null,
        roleClaimValues: roleClaim ? claimValues(info, roleClaim) : null,
        // From the ID token only: userinfo is not signed for this sign-in.
        secondStep: idpSaysTwoStep(claims),
      };
    },
  };
}
