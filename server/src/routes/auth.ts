import type { FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IsAuthenticatedResponse, LoginForm } from '@contract/auth';
import { createOidc, OidcRefusal, type OidcTransaction } from '../auth/oidc';
import { SESSION_COOKIE } from '../auth/sessions';
import { cookieOptions as sessionCookieOptions, startSession as startStaffSession } from '../auth/sessionCookie';
import { CHALLENGE_COOKIE, CHALLENGE_TTL_MS, createChallengeStore } from '../auth/signInChallenges';
import type { SignInMethod } from '../auth/signInOut';
import { publicProfile } from '../staff/accounts';
import { oidcAccount } from '../auth/oidcAccount';
import { loginPage, logoutConfirmPage } from '../auth/loginPage';
import { safeReturnPath } from '../auth/returnPath';
import { navigatedFromOurPages } from '../lib/security';
import { createLoginThrottle } from '../auth/throttle';
import { retryAfterSeconds, throttledMessage } from '../auth/throttleRules';
import { signInWithPassword } from '../auth/passwordSignIn';
import { recordFailedSignIn, signOut } from '../auth/signInOut';
import { CircuitOpenError } from '../lib/circuitBreaker';
import type { StaffUser } from '../staff/queries';

const OIDC_COOKIE = 'studio_oidc';
const INVALID_CREDENTIALS = 'Invalid email or password';
const ACCOUNT_DISABLED = 'This account is disabled. Ask an owner of this console to enable it.';

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const oidc = app.config.oidc ? createOidc(app.config.oidc) : null;
  const loginPath = `${app.pathPrefix}/login`;
  const consoleHome = '/';
  // A deep link opened while signed out comes back after sign-in, if it is a page of ours.
  const returnTo = (next: unknown) => safeReturnPath(next, app.pathPrefix) ?? consoleHome;
  const throttle = createLoginThrottle(app.database, () => app.clock.now());
  // Only the sign-in pages post HTML forms; in this plugin's scope alone, so every JSON route answers 415 to a form body.
  await app.register(formbody);

  const challenges = createChallengeStore(app.database, () => app.clock.now());
  const cookieOptions = (request: FastifyRequest) => sessionCookieOptions(app, request);

  const publicOrigin = (request: FastifyRequest) => app.config.PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;

  const startSession = (request: FastifyRequest, reply: FastifyReply, user: StaffUser, method: SignInMethod) =>
    startStaffSession(app, request, reply, user, method);

  const htmlSchema = { hide: true } as const;

  app.get(
    '/login',
    { config: { public: true }, schema: { ...htmlSchema, querystring: z.object({ error: z.string().optional(), next: z.string().optional() }) } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const next = safeReturnPath(request.query.next, app.pathPrefix);
      if (oidc) {
        try {
          const { url, transaction } = await oidc.start(`${publicOrigin(request)}${app.pathPrefix}/callback`);
          // Signed with the transaction: the provider never sees where the browser comes back to.
          reply.setCookie(OIDC_COOKIE, JSON.stringify({ ...transaction, next }), {
            ...cookieOptions(request),
            signed: true,
            maxAge: 10 * 60,
          });
          return reply.redirect(url, 302);
        } catch (error) {
          request.log.error({ err: error }, 'identity provider unreachable');
          return reply
            .status(503)
            .type('text/html')
            .send(
              loginPage({
                action: loginPath,
                nonce: reply.cspNonce(),
                next,
                error:
                  error instanceof CircuitOpenError
                    ? `The identity provider cannot be reached right now. Try again in ${Math.max(1, Math.ceil(error.retryInMs / 1000))} s.`
                    : 'The identity provider cannot be reached right now. Try again in a minute.',
              }),
            );
        }
      }
      return reply.type('text/html').send(loginPage({ action: loginPath, nonce: reply.cspNonce(), next }));
    },
  );

  app.post('/login', { config: { public: true }, schema: { ...htmlSchema, body: LoginForm } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { email, password } = request.body;
    const next = safeReturnPath(request.body.next, app.pathPrefix);
    const result = await signInWithPassword(app, throttle, { email, password, ip: request.ip, userAgent: request.headers['user-agent'] });
    const page = (error: string) => loginPage({ action: loginPath, nonce: reply.cspNonce(), email, next, error });
    if (result.outcome === 'throttled') {
      request.log.info({ address: result.address }, 'sign-in refused: too many failed attempts');
      reply.header('retry-after', String(retryAfterSeconds(result.retryAfterMs)));
      return reply
        .status(429)
        .type('text/html')
        .send(page(throttledMessage(result.retryAfterMs)));
    }
    if (result.outcome === 'invalid') {
      request.log.info({ staff: result.staffId }, 'failed sign-in');
      return reply.status(401).type('text/html').send(page(INVALID_CREDENTIALS));
    }
    if (result.outcome === 'disabled') return reply.status(403).type('text/html').send(page(ACCOUNT_DISABLED));
    const { user } = result;
    if (result.outcome === 'second step') {
      // The session waits for the second step (/login/two-step).
      const token = await challenges.start(user.id, next);
      reply.setCookie(CHALLENGE_COOKIE, token, { ...cookieOptions(request), maxAge: CHALLENGE_TTL_MS / 1000 });
      return reply.redirect(`${loginPath}/two-step`, 303);
    }
    await startSession(request, reply, user, { first: 'password' });
    request.log.info({ staff: user.id }, 'signed in');
    return reply.redirect(next ?? consoleHome, 303);
  });

  app.get('/callback', { config: { public: true }, schema: { ...htmlSchema } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!oidc) return reply.status(404).send({ message: 'Single sign-on is not configured on this server.' });
    const raw = request.cookies[OIDC_COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : null;
    reply.clearCookie(OIDC_COOKIE, { path: '/' });
    if (!unsigned?.valid || !unsigned.value) {
      return reply
        .status(400)
        .type('text/html')
        .send(
          loginPage({
            action: loginPath,
            nonce: reply.cspNonce(),
            error: 'Your sign-in took too long or was started in another browser. Please sign in again.',
          }),
        );
    }
    try {
      const transaction = JSON.parse(unsigned.value) as OidcTransaction & { next?: unknown };
      const profile = await oidc.finish(new URL(request.url, publicOrigin(request)), transaction);
      if (app.config.OIDC_REQUIRE_MFA && !profile.secondStep) {
        await recordFailedSignIn(app, {
          staff: profile.email,
          targetId: null,
          reason: 'identity provider did not confirm a second factor',
          step: 'oidc',
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
        throw new OidcRefusal(
          'This console requires two-step sign-in, and your identity provider did not confirm a second factor for this sign-in. Sign in there with two-step, then try again.',
        );
      }
      const user = await oidcAccount(app.database, profile, app.config.oidc!, { ip: request.ip, at: app.clock.now() });
      app.sessions.forgetUser(user.id);
      await startSession(request, reply, user, { first: 'oidc', ...(profile.secondStep ? { second: 'idp' as const } : {}) });
      return reply.redirect(returnTo(transaction.next), 303);
    } catch (error) {
      const refused = error instanceof OidcRefusal;
      request.log.warn({ err: error }, 'single sign-on refused');
      return reply
        .status(refused ? 403 : 400)
        .type('text/html')
        .send(
          loginPage({
            action: loginPath,
            nonce: reply.cspNonce(),
            error: refused ? error.message : 'Sign-in with your identity provider failed. Please try again.',
          }),
        );
    }
  });

  async function endSessionAndLeave(request: FastifyRequest, reply: FastifyReply) {
    const signedIn = await app.sessions.resolve(request.cookies[SESSION_COOKIE]);
    if (signedIn) {
      await signOut(app, signedIn.user, signedIn.sessionId, request.ip);
    }
    await app.sessions.destroy(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    reply.header('cache-control', 'no-store');
    return reply.redirect(loginPath, 302);
  }

  // Another site may link or redirect here; the staff member then confirms with one button, which
  // posts back to us (a cross-site POST is refused outright).
  app.get('/logout', { config: { public: true }, schema: { ...htmlSchema } }, async (request, reply) => {
    if (navigatedFromOurPages(app, request)) return endSessionAndLeave(request, reply);
    reply.header('cache-control', 'no-store');
    return reply.type('text/html').send(logoutConfirmPage({ action: `${app.pathPrefix}/logout`, nonce: reply.cspNonce() }));
  });

  app.post('/logout', { config: { public: true }, schema: { ...htmlSchema } }, async (request, reply) => endSessionAndLeave(request, reply));

  app.get(
    '/api/isAuthenticated',
    {
      config: { public: true, readsSession: true },
      schema: { tags: ['auth'], summary: 'Whether the browser has a staff session (spec §7)', response: { 200: IsAuthenticatedResponse } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return request.staff ? { isAuthenticated: true, user: publicProfile(request.staff) } : { isAuthenticated: false, user: null };
    },
  );
};

export default authRoutes;
