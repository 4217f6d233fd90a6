import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IsAuthenticatedResponse, LoginForm } from '../../../contract/auth';
import { createOidc, OidcRefusal, type OidcTransaction } from '../auth/oidc';
import { DUMMY_HASH, verifyPassword } from '../auth/password';
import { SESSION_COOKIE, ABSOLUTE_TIMEOUT_MS } from '../auth/sessions';
import { findStaffByEmail, publicProfile, upsertStaffUser } from '../auth/staff';
import { loginPage } from '../auth/loginPage';
import { createLoginThrottle } from '../auth/throttle';
import { recordAudit } from '../audit/record';
import { CircuitOpenError } from '../lib/circuitBreaker';
import type { StaffUser } from '../auth/staff';

const OIDC_COOKIE = 'studio_oidc';
const INVALID_CREDENTIALS = 'Invalid email or password';

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const oidc = app.config.oidc ? createOidc(app.config.oidc) : null;
  const loginPath = `${app.pathPrefix}/login`;
  const consoleHome = '/';
  const throttle = createLoginThrottle(app.db, () => app.clock.now());

  const isHttps = (request: FastifyRequest) =>
    request.protocol === 'https' || (app.config.PUBLIC_URL ?? '').startsWith('https://');

  const cookieOptions = (request: FastifyRequest) => ({
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: isHttps(request),
  });

  const publicOrigin = (request: FastifyRequest) =>
    app.config.PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;

  /** A fresh session id at every sign-in: any id the browser brought along is destroyed. */
  async function startSession(request: FastifyRequest, reply: FastifyReply, user: StaffUser, method: 'password' | 'oidc') {
    await app.sessions.destroy(request.cookies[SESSION_COOKIE]);
    const token = await app.db.transaction(async (tx) => {
      const created = await app.sessions.create(user.id, { ip: request.ip, userAgent: request.headers['user-agent'] }, tx);
      await recordAudit(tx, {
        staff: { id: user.id, email: user.email },
        action: 'auth.sign_in',
        target_type: 'staff_user',
        target_id: user.id,
        after: { method, user_agent: request.headers['user-agent']?.slice(0, 200) ?? null },
        ip: request.ip,
        at: app.clock.now(),
      });
      return created;
    });
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge: ABSOLUTE_TIMEOUT_MS / 1000 });
  }

  const htmlSchema = { hide: true } as const;

  app.get('/login', { schema: { ...htmlSchema, querystring: z.object({ error: z.string().optional() }) } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (oidc) {
      try {
        const { url, transaction } = await oidc.start(`${publicOrigin(request)}${app.pathPrefix}/callback`);
        reply.setCookie(OIDC_COOKIE, JSON.stringify(transaction), {
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
              error:
                error instanceof CircuitOpenError
                  ? `The identity provider cannot be reached right now. Try again in ${Math.max(1, Math.ceil(error.retryInMs / 1000))} s.`
                  : 'The identity provider cannot be reached right now. Try again in a minute.',
            }),
          );
      }
    }
    return reply.type('text/html').send(loginPage({ action: loginPath, nonce: reply.cspNonce() }));
  });

  app.post('/login', { schema: { ...htmlSchema, body: LoginForm } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { email, password } = request.body;
    const account = email.toLowerCase();
    const wait = await throttle.blockedFor(account, request.ip);
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60_000);
      const error = `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
      reply.header('retry-after', String(Math.ceil(wait / 1000)));
      return reply.status(429).type('text/html').send(loginPage({ action: loginPath, nonce: reply.cspNonce(), email, error }));
    }
    const user = email ? await findStaffByEmail(app.db, email) : undefined;
    // Same work whether or not the e-mail exists, so timing does not tell which was wrong.
    const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !valid || !password) {
      request.log.info({ email }, 'failed sign-in');
      await app.db.transaction(async (tx) => {
        await throttle.recordFailure(account, request.ip, tx);
        await recordAudit(tx, {
          staff: account.slice(0, 320) || null,
          action: 'auth.sign_in_failed',
          target_type: 'staff_user',
          target_id: user?.id ?? null,
          after: { reason: user ? 'wrong password' : 'unknown account' },
          ip: request.ip,
          at: app.clock.now(),
        });
      });
      return reply.status(401).type('text/html').send(loginPage({ action: loginPath, nonce: reply.cspNonce(), email, error: INVALID_CREDENTIALS }));
    }
    await throttle.clear(account);
    await startSession(request, reply, user, 'password');
    request.log.info({ staff: user.email }, 'signed in');
    return reply.redirect(consoleHome, 303);
  });

  app.get('/callback', { schema: { ...htmlSchema } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!oidc) return reply.status(404).send({ message: 'Single sign-on is not configured on this server.' });
    const raw = request.cookies[OIDC_COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : null;
    reply.clearCookie(OIDC_COOKIE, { path: '/' });
    if (!unsigned?.valid || !unsigned.value) {
      return reply
        .status(400)
        .type('text/html')
        .send(loginPage({ action: loginPath, nonce: reply.cspNonce(), error: 'Your sign-in took too long or was started in another browser. Please sign in again.' }));
    }
    try {
      const transaction = JSON.parse(unsigned.value) as OidcTransaction;
      const profile = await oidc.finish(new URL(request.url, publicOrigin(request)), transaction);
      const { user } = await upsertStaffUser(app.db, { email: profile.email, nickname: profile.nickname, picture: profile.picture });
      await startSession(request, reply, user, 'oidc');
      return reply.redirect(consoleHome, 303);
    } catch (error) {
      const refused = error instanceof OidcRefusal;
      request.log.warn({ err: error }, 'single sign-on refused');
      return reply
        .status(refused ? 403 : 400)
        .type('text/html')
        .send(loginPage({ action: loginPath, nonce: reply.cspNonce(), error: refused ? error.message : 'Sign-in with your identity provider failed. Please try again.' }));
    }
  });

  app.get('/logout', { schema: { ...htmlSchema } }, async (request, reply) => {
    const signedIn = await app.sessions.resolve(request.cookies[SESSION_COOKIE]);
    if (signedIn) {
      const { user } = signedIn;
      await app.db.transaction(async (tx) => {
        await app.sessions.end(user.id, signedIn.sessionId, tx);
        await recordAudit(tx, { staff: { id: user.id, email: user.email }, action: 'auth.sign_out', target_type: 'staff_user', target_id: user.id, ip: request.ip, at: app.clock.now() });
      });
    }
    await app.sessions.destroy(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    reply.header('cache-control', 'no-store');
    return reply.redirect(loginPath, 302);
  });

  app.get(
    '/api/isAuthenticated',
    {
      config: { public: true },
      schema: { tags: ['auth'], summary: 'Whether the browser has a staff session (spec §7)', response: { 200: IsAuthenticatedResponse } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return request.staff
        ? { isAuthenticated: true, user: publicProfile(request.staff) }
        : { isAuthenticated: false, user: null };
    },
  );
};

export default authRoutes;
