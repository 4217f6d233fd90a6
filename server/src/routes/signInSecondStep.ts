import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginPage, twoStepPage } from '../auth/loginPage';
import { safeReturnPath } from '../auth/returnPath';
import { startSession } from '../auth/sessionCookie';
import { CHALLENGE_COOKIE, createChallengeStore } from '../auth/signInChallenges';
import { recordFailedSignIn } from '../auth/signInOut';
import { findStaffById } from '../staff/queries';
import { createLoginThrottle } from '../auth/throttle';
import { accountKey, addressKey, retryAfterSeconds, throttledMessage } from '../auth/throttleRules';
import { checkSecondStep } from '../auth/twoStep';

const WRONG_CODE = 'That code is not right. Check your authenticator app and try again.';
const START_AGAIN = 'Your sign-in took too long or was not started here. Please sign in with your password again.';

/**
 * The second step of a sign-in with two-step on: /login/two-step, an HTML form like /login. POST
 * /login leaves a short-lived challenge (a cookie naming a row, never a session); a right code
 * ends it and signs in as a password sign-in does.
 */
const secondStepPage: FastifyPluginAsyncZod = async (app) => {
  await app.register(formbody);
  const throttle = createLoginThrottle(app.database, () => app.clock.now());
  const challenges = createChallengeStore(app.database, () => app.clock.now());
  const loginPath = `${app.pathPrefix}/login`;
  const stepPath = `${loginPath}/two-step`;
  const htmlSchema = { hide: true } as const;

  app.get('/login/two-step', { config: { public: true }, schema: htmlSchema }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!(await challenges.find(request.cookies[CHALLENGE_COOKIE]))) {
      return reply
        .status(401)
        .type('text/html')
        .send(loginPage({ action: loginPath, nonce: reply.cspNonce(), error: START_AGAIN }));
    }
    return reply.type('text/html').send(twoStepPage({ action: stepPath, nonce: reply.cspNonce(), restartUrl: loginPath }));
  });

  app.post(
    '/login/two-step',
    { config: { public: true }, schema: { ...htmlSchema, body: z.object({ code: z.string().max(100_000).default('') }) } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const token = request.cookies[CHALLENGE_COOKIE];
      const challenge = await challenges.find(token);
      const page = (status: number, error: string) =>
        reply
          .status(status)
          .type('text/html')
          .send(twoStepPage({ action: stepPath, nonce: reply.cspNonce(), restartUrl: loginPath, error }));
      const address = addressKey(request.ip);
      if (!challenge || !token) {
        // Counted against the address like a wrong password: a second step alone guesses nothing for free.
        const verdict = await throttle.take('', address);
        if (verdict.allowed) {
          await recordFailedSignIn(app, {
            staff: null,
            targetId: null,
            reason: 'second step without a password',
            step: 'code',
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          });
        }
        reply.clearCookie(CHALLENGE_COOKIE, { path: '/' });
        return reply
          .status(401)
          .type('text/html')
          .send(loginPage({ action: loginPath, nonce: reply.cspNonce(), error: START_AGAIN }));
      }
      const user = await findStaffById(app.database, challenge.staffUserId);
      if (!user)
        return reply
          .status(401)
          .type('text/html')
          .send(loginPage({ action: loginPath, nonce: reply.cspNonce(), error: START_AGAIN }));
      const account = accountKey(user.email);
      const verdict = await throttle.take(account, address);
      if (!verdict.allowed) {
        request.log.info({ address }, 'second step refused: too many failed attempts');
        reply.header('retry-after', String(retryAfterSeconds(verdict.retryAfterMs)));
        return page(429, throttledMessage(verdict.retryAfterMs));
      }
      const checked = await checkSecondStep(app.database, user.id, request.body.code, app.clock.now());
      if (!checked.ok) {
        await recordFailedSignIn(app, {
          staff: { id: user.id, email: user.email },
          targetId: user.id,
          reason: checked.reason,
          step: 'code',
          limitReached: verdict.limitReached,
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
        if (await challenges.failed(token))
          return page(401, checked.reason === 'code already used' ? 'That code was already used. Wait for the next one.' : WRONG_CODE);
        reply.clearCookie(CHALLENGE_COOKIE, { path: '/' });
        return reply
          .status(401)
          .type('text/html')
          .send(loginPage({ action: loginPath, nonce: reply.cspNonce(), email: user.email, error: 'Too many wrong codes. Sign in with your password again.' }));
      }
      // Of two right codes sent at once (a recovery code and an app code), one signs in.
      if (!(await challenges.finish(token))) {
        return reply
          .status(401)
          .type('text/html')
          .send(loginPage({ action: loginPath, nonce: reply.cspNonce(), error: START_AGAIN }));
      }
      reply.clearCookie(CHALLENGE_COOKIE, { path: '/' });
      await throttle.succeeded(account, address);
      if (user.disabled_at) {
        return reply
          .status(403)
          .type('text/html')
          .send(loginPage({ action: loginPath, nonce: reply.cspNonce(), error: 'This account is disabled. Ask an owner of this console to enable it.' }));
      }
      await startSession(app, request, reply, user, { first: 'password', second: checked.method });
      request.log.info({ staff: user.id, second_step: checked.method }, 'signed in');
      return reply.redirect(safeReturnPath(challenge.next, app.pathPrefix) ?? '/', 303);
    },
  );
};

export default secondStepPage;
