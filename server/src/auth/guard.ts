import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Permission } from '@contract/permissions';
import { recordAudit } from '../audit/record';
import { createRateLimiter } from '../lib/rateLimit';
import { decideAccess, undeclaredRoutes } from './access';
import { SESSION_COOKIE } from './sessions';
import { REAUTH_REQUIRED, recentlyVerified } from './reauth';
import { isTwoStepRequired, TWO_STEP_SETUP_REQUIRED } from './twoStepRule';

export const AUTHENTICATION_REQUIRED = 'Authentication required: sign in at the login page first.';

// A refusal is audited; a staff member (or a script with their cookie) hammering a refused route
// must not fill the log, so past this many a minute per account refusals are only logged.
const AUDITED_REFUSALS_PER_MINUTE = 30;

/**
 * Default-deny, decided by the route that matched and never by the URL's text: the router has
 * already decoded and normalised the path (percent forms, absolute-form targets), so the route is
 * the only thing that says what is being asked for. A route is either `config: { public: true }`
 * or needs a staff session whose role allows the route's `config: { permission }`
 * (contract/permissions.ts); a route with neither stops the server at start and is refused to
 * everyone. A request that matches no route reaches the not-found handler, which answers without data.
 */
export function registerSessionGuard(app: FastifyInstance) {
  const searchProtocol = `${app.pathPrefix}/1/`;
  const refusalsAudited = createRateLimiter({ limit: AUDITED_REFUSALS_PER_MINUTE, windowMs: 60_000, now: () => app.clock.now().getTime() });
  app.decorateRequest('staff', null);
  app.decorateRequest('sessionId', null);

  // The search protocol's clients read Algolia's error shape, which also carries the status.
  // `flag` (reauth_required, two_step_setup_required) is for the console's calls, not the search protocol's.
  const refuse = (request: FastifyRequest, reply: FastifyReply, status: 401 | 403, message: string, flag?: 'reauth_required' | 'two_step_setup_required') =>
    reply.status(status).send(request.routeOptions.url?.startsWith(searchProtocol) ? { message, status } : { message, ...(flag ? { [flag]: true } : {}) });

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions;
    if (route.url === undefined) return;
    const config = route.config ?? {};
    if (config.public && !config.readsSession) return;
    const resolved = await app.sessions.resolve(request.cookies[SESSION_COOKIE]);
    request.staff = resolved?.user ?? null;
    request.sessionId = resolved?.sessionId ?? null;
    if (config.public) return;
    if (!request.staff) return refuse(request, reply, 401, AUTHENTICATION_REQUIRED);
    // The owner's rule: an account without two-step (and a sign-in without a second step) sets it up first.
    if (!config.twoStepSetup && !request.staff.two_step_at && !resolved?.secondStep && (await isTwoStepRequired(app))) {
      return refuse(request, reply, 403, TWO_STEP_SETUP_REQUIRED, 'two_step_setup_required');
    }
    const decision = decideAccess(config, request.staff.role);
    if (decision.allowed) {
      if (config.reauth && !(await recentlyVerified(app, request, resolved?.verifiedAt ?? null))) {
        return refuse(request, reply, 403, REAUTH_REQUIRED, 'reauth_required');
      }
      return;
    }
    await auditRefusal(request, decision.permission);
    return refuse(request, reply, 403, decision.message);
  });

  async function auditRefusal(request: FastifyRequest, permission: Permission | null) {
    const staff = request.staff!;
    const target = `${request.method} ${request.routeOptions.url}`;
    if (!refusalsAudited.take(String(staff.id)).allowed) {
      request.log.warn({ staff: staff.id, route: target, permission }, 'refused: permission missing (not audited: too many refusals this minute)');
      return;
    }
    await recordAudit(app.database, {
      staff: { id: staff.id, email: staff.email },
      action: 'auth.access_denied',
      // The route's pattern, never the URL: a path can hold an e-mail or a client id.
      target_type: 'route',
      target_id: target,
      after: { permission, role: staff.role },
      ip: request.ip,
      at: app.clock.now(),
    });
  }

  // A route added without declaring its access is a developer's mistake: say so at start, naming it.
  app.addHook('onReady', async () => {
    const missing = [...new Set(undeclaredRoutes(app.routeTable))];
    if (missing.length > 0) {
      throw new Error(
        `Every route must declare config: { permission: '<name>' } (contract/permissions.ts) or config: { public: true }. These do not:\n  ${missing.join('\n  ')}`,
      );
    }
  });
}

/** Marks every route registered in this plugin scope as public (e.g. the console's static files). */
export function markRoutesPublic(scope: FastifyInstance) {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object | undefined), public: true };
  });
}

/** Gives every route registered in this plugin scope a permission (routes a library registers, like the API docs). */
export function markRoutesPermission(scope: FastifyInstance, permission: Permission) {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object | undefined), permission };
  });
}
