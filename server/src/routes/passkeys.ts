import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { errorResponses } from '@contract/common';
import { Passkey, PasskeyAddRequest, PasskeyOptions, PasskeySignInRequest, PasskeySignInResponse } from '@contract/passkeys';
import { Int4IdParams } from '@contract/raSimpleRest';
import { auditActor } from '../audit/record';
import { AUTHENTICATION_REQUIRED } from '../auth/guard';
import {
  addPasskey,
  authenticationOptions,
  checkAssertion,
  listPasskeys,
  passkeyOwner,
  PasskeyRefusal,
  registrationOptions,
  relyingParty,
  removePasskey,
} from '../auth/passkeys';
import { createPasskeyChallenges } from '../auth/passkeyChallenges';
import { safeReturnPath } from '../auth/returnPath';
import { startSession } from '../auth/sessionCookie';
import { recordFailedSignIn } from '../auth/signInOut';
import { findStaffById, type StaffUser } from '../staff/queries';
import { createLoginThrottle } from '../auth/throttle';
import { addressKey, retryAfterSeconds, throttledMessage } from '../auth/throttleRules';
import { HttpError } from '../lib/errors';
import { createRateLimiter } from '../lib/rateLimit';

const tags = ['passkeys (extension)'];
// A passkey's answer is a few kilobytes; anything far larger is not one.
const BODY_LIMIT = 64 * 1024;
// Sign-in options cost a row each: a page asks once per click, a script asking in a loop is refused.
const SIGN_IN_OPTIONS_PER_MINUTE = 30;
// The sign-in page's WebAuthn helper: @simplewebauthn/browser's own bundle (it defines SimpleWebAuthnBrowser).
const browserBundle = () =>
  readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')), '../dist/bundle/index.umd.min.js'), 'utf8');
const ACCOUNT_DISABLED = 'This account is disabled. Ask an owner of this console to enable it.';

/**
 * Passkeys (docs/security-signin.md#passkeys): the member adds, lists and removes their own
 * (from the user menu's two-step dialog), and signs in with one from the sign-in page, with no
 * password; a passkey sign-in counts as two-step. Re-authentication takes one through
 * POST /api/auth/reauth { passkey }, with options from /api/auth/passkeys/reauth-options.
 */
const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const challenges = createPasskeyChallenges(app.database, () => app.clock.now());
  const throttle = createLoginThrottle(app.database, () => app.clock.now());
  const optionsLimit = createRateLimiter({ limit: SIGN_IN_OPTIONS_PER_MINUTE, windowMs: 60_000, now: () => app.clock.now().getTime() });

  const staffOf = (request: { staff: StaffUser | null }) => {
    if (!request.staff) throw new HttpError(401, AUTHENTICATION_REQUIRED);
    return request.staff;
  };

  const bundle = browserBundle();
  app.get('/login/passkey/webauthn.js', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    return reply.type('text/javascript; charset=utf-8').send(bundle);
  });

  app.get(
    '/api/auth/passkeys',
    {
      config: { permission: 'signed_in', twoStepSetup: true },
      schema: { tags, summary: 'Your passkeys, with when each was added and last used', response: { 200: z.array(Passkey), ...errorResponses } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return listPasskeys(app.database, staffOf(request).id);
    },
  );

  // Adding a passkey gives lasting access to the account: it needs a recent check, like other sensitive changes.
  app.post(
    '/api/auth/passkeys/registration-options',
    {
      config: { permission: 'signed_in', twoStepSetup: true, reauth: true },
      schema: {
        tags,
        summary: 'Options for navigator.credentials.create() to add a passkey (the challenge is good for 5 minutes, once)',
        response: { 200: PasskeyOptions, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return registrationOptions(app.database, challenges, relyingParty(app, request), staffOf(request));
    },
  );

  app.post(
    '/api/auth/passkeys',
    {
      bodyLimit: BODY_LIMIT,
      config: { permission: 'signed_in', twoStepSetup: true, reauth: true },
      schema: {
        tags,
        summary: 'Add a passkey: its name and the browser’s answer to the registration options',
        body: PasskeyAddRequest,
        response: { 201: Passkey, ...errorResponses },
      },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      const added = await addPasskey(app, challenges, relyingParty(app, request), staff, request.body, auditActor(request));
      // The passkey just answered with its owner's verification: this sign-in now has a second step.
      await app.sessions.markVerified(request.sessionId!, app.clock.now(), 'passkey');
      return reply.status(201).send(added);
    },
  );

  app.delete(
    '/api/auth/passkeys/:id',
    {
      config: { permission: 'signed_in', reauth: true },
      schema: { tags, summary: 'Remove one of your passkeys', params: Int4IdParams, response: { 200: z.array(Passkey), ...errorResponses } },
    },
    async (request) => {
      const staff = staffOf(request);
      await removePasskey(app, staff, request.params.id, auditActor(request));
      return listPasskeys(app.database, staff.id);
    },
  );

  app.post(
    '/api/auth/passkeys/reauth-options',
    {
      config: { permission: 'signed_in' },
      schema: {
        tags,
        summary: 'Options for navigator.credentials.get() to confirm it is you with one of your passkeys (POST /api/auth/reauth { passkey })',
        response: { 200: PasskeyOptions, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return authenticationOptions(app.database, challenges, relyingParty(app, request), 'reauth', staffOf(request));
    },
  );

  app.post(
    '/login/passkey/options',
    {
      config: { public: true },
      schema: { tags, summary: 'Options for navigator.credentials.get() to sign in with a passkey', response: { 200: PasskeyOptions, ...errorResponses } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const verdict = optionsLimit.take(addressKey(request.ip));
      if (!verdict.allowed) {
        reply.header('retry-after', String(retryAfterSeconds(verdict.retryAfterMs)));
        throw new HttpError(429, throttledMessage(verdict.retryAfterMs));
      }
      return authenticationOptions(app.database, challenges, relyingParty(app, request), 'sign_in', null);
    },
  );

  app.post(
    '/login/passkey',
    {
      bodyLimit: BODY_LIMIT,
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign in with a passkey (no password): its answer to the sign-in options; sets the session cookie',
        body: PasskeySignInRequest,
        response: { 200: PasskeySignInResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const address = addressKey(request.ip);
      const userAgent = request.headers['user-agent'];
      // Counted against the address like a password: failures fill the same limit, a right passkey forgives them.
      const verdict = await throttle.take('', address);
      if (!verdict.allowed) {
        request.log.info({ address }, 'passkey sign-in refused: too many failed attempts');
        reply.header('retry-after', String(retryAfterSeconds(verdict.retryAfterMs)));
        throw new HttpError(429, throttledMessage(verdict.retryAfterMs));
      }
      let used;
      try {
        used = await checkAssertion(app, challenges, relyingParty(app, request), request.body.response, 'sign_in', null);
      } catch (error) {
        if (!(error instanceof PasskeyRefusal)) throw error;
        const owner = error.reason === 'unknown passkey' ? null : await passkeyOwner(app.database, request.body.response.id);
        await recordFailedSignIn(app, {
          staff: owner ? { id: owner.id, email: owner.email } : null,
          targetId: owner?.id ?? null,
          reason: `passkey: ${error.reason}`,
          step: 'passkey',
          limitReached: verdict.limitReached,
          ip: request.ip,
          userAgent,
        });
        throw error;
      }
      const user = await findStaffById(app.database, used.staffUserId);
      if (!user) throw new PasskeyRefusal(401, 'unknown passkey', 'This passkey is not registered for a staff account here.');
      await throttle.succeeded('', address);
      if (user.disabled_at) {
        await recordFailedSignIn(app, {
          staff: { id: user.id, email: user.email },
          targetId: user.id,
          reason: 'account disabled',
          step: 'passkey',
          ip: request.ip,
          userAgent,
        });
        throw new HttpError(403, ACCOUNT_DISABLED);
      }
      await startSession(app, request, reply, user, { first: 'passkey', second: 'passkey', passkey: { id: used.passkeyId, name: used.name } });
      request.log.info({ staff: user.id, passkey: used.passkeyId }, 'signed in with a passkey');
      return { redirect: safeReturnPath(request.body.next, app.pathPrefix) ?? '/' };
    },
  );
};

export default passkeyRoutes;
