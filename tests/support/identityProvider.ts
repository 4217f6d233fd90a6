import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider } from 'oidc-provider';

export interface IdentityAccount {
  sub: string;
  email: string;
  email_verified?: boolean;
  nickname: string;
  picture: string;
  name: string;
  /** Released with the 'groups' scope, as Okta and others do (OIDC_ROLE_CLAIM=groups). Mutable between sign-ins. */
  groups?: string[];
  /** How the provider says this person signed in (the ID token's amr, RFC 8176): ['pwd', 'otp'] for two-step. */
  amr?: string[];
}

/** A person at the provider, sub@studio.test, verified; `extra` adds groups or amr. */
export const studioPerson = (sub: string, extra: Partial<IdentityAccount> = {}): IdentityAccount => ({
  sub,
  email: `${sub}@studio.test`,
  email_verified: true,
  nickname: sub,
  picture: `https://pictures.example/${sub}.png`,
  name: sub,
  ...extra,
});

export interface IdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Every authorization request the provider received, as the browser sent it. */
  authorizationRequests: URL[];
  /**
   * Plays the browser from the provider's authorization URL to the redirect back to the console:
   * the person signs in as `accountId` and consents, or cancels at the login screen when it is null.
   * Returns the console callback URL.
   */
  signIn(authorizationUrl: string, accountId: string | null): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 and a random port. Its login and consent
 * screens are replaced by a handler that accepts whichever account the test names, so no HTML
 * has to be scraped.
 */
export async function startIdentityProvider(options: { redirectUri: string; accounts: IdentityAccount[] }): Promise<IdentityProvider> {
  const clientId = 'studio-console';
  const clientSecret = 'a-client-secret-only-the-test-knows';
  const accounts = new Map(options.accounts.map((account) => [account.sub, account]));
  const authorizationRequests: URL[] = [];

  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [options.redirectUri] }],
    jwks: { keys: [{ ...signingKey, kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['a-cookie-key-only-the-test-knows'] },
    claims: { openid: ['sub', 'acr', 'amr'], email: ['email', 'email_verified'], profile: ['name', 'nickname', 'picture'], groups: ['groups'] },
    // A confidential client need not use PKCE by default; requiring it proves the console sends it.
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      // amr travels in the login result (below), not as a claim of the account.
      if (!account) return undefined;
      const { amr: _amr, ...claims } = account;
      return { accountId: sub, claims: async () => claims };
    },
  });
  // oidc-provider logs to the console on every server error; the tests assert on responses instead.
  provider.on('server_error', () => {});

  const providerCallback = provider.callback();
  handle = (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/auth') authorizationRequests.push(url);
    if (url.pathname.startsWith('/interaction/')) {
      finishInteraction(req, res, url.searchParams.get('account') ?? '').catch((error: Error) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message);
      });
      return;
    }
    providerCallback(req, res);
  };

  async function finishInteraction(req: IncomingMessage, res: ServerResponse, accountId: string) {
    const { prompt, params, session, grantId } = await provider.interactionDetails(req, res);
    if (prompt.name === 'login' && !accountId) {
      const result = { error: 'access_denied', error_description: 'End-User aborted interaction' };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      return;
    }
    if (prompt.name === 'login') {
      const amr = accounts.get(accountId)?.amr;
      await provider.interactionFinished(req, res, { login: { accountId, ...(amr ? { amr } : {}) } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = grantId ? await provider.Grant.find(grantId) : new provider.Grant({ accountId: session!.accountId, clientId: params.client_id as string });
    const missing = prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant!.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant!.addOIDCClaims(missing.missingOIDCClaims);
    await provider.interactionFinished(req, res, { consent: { grantId: await grant!.save() } }, { mergeWithLastSubmission: true });
  }

  return {
    issuer,
    clientId,
    clientSecret,
    authorizationRequests,
    async signIn(authorizationUrl, accountId) {
      const jar = new CookieJar();
      let url = new URL(authorizationUrl);
      // login, then consent: each is a round trip through /interaction/<uid> and back to /auth/<uid>.
      for (let hop = 0; hop < 10; hop++) {
        if (url.origin !== issuer) return url;
        if (url.pathname.startsWith('/interaction/')) url.searchParams.set('account', accountId ?? '');
        const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
        jar.store(response.headers.getSetCookie());
        const location = response.headers.get('location');
        if (!location) throw new Error(`identity provider answered ${response.status} at ${url.pathname}: ${await response.text()}`);
        url = new URL(location, url);
      }
      throw new Error('identity provider redirected too many times');
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Just enough of a browser's cookie store for one sign-in on one host. */
class CookieJar {
  private cookies = new Map<string, string>();

  store(setCookies: string[]) {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const separator = pair!.indexOf('=');
      const name = pair!.slice(0, separator).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\s*$/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(separator + 1).trim());
    }
  }

  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}
