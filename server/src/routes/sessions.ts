import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@contract/common';
import { contentRange } from '@contract/raSimpleRest';
import { EndOtherSessionsResponse, SessionParams, StaffSession } from '@contract/sessions';
import { auditActor } from '../audit/record';
import { endOtherSessions, endOwnSession } from '../auth/sessionEnds';
import { AUTHENTICATION_REQUIRED } from '../auth/guard';
import { SESSION_COOKIE, type ActiveSession } from '../auth/sessions';
import { HttpError } from '../lib/errors';

const ADMIN = '/api/admin/v1';
const tags = ['sessions (extension)'];

/** 'My sessions': the signed-in staff member's own sessions, each of which they can end (ASVS 7.4). */
const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const view = (session: ActiveSession, currentId: string | null): StaffSession => ({
    id: session.id,
    created_at: session.created_at.toISOString(),
    last_seen_at: session.last_seen_at.toISOString(),
    expires_at: session.expires_at.toISOString(),
    ip: session.ip,
    user_agent: session.user_agent,
    current: session.storedId === currentId,
  });

  const staffOf = (request: { staff: { id: number } | null }) => {
    if (!request.staff) throw new HttpError(401, AUTHENTICATION_REQUIRED);
    return request.staff;
  };

  app.get(
    `${ADMIN}/sessions`,
    {
      config: { permission: 'signed_in' },
      schema: {
        tags,
        summary: "The signed-in staff member's active sessions, most recently used first",
        response: { 200: z.array(StaffSession), ...errorResponses },
      },
    },
    async (request, reply) => {
      const rows = (await app.sessions.listActive(staffOf(request).id)).map((session) => view(session, request.sessionId));
      reply.header('cache-control', 'no-store');
      reply.header('content-range', contentRange('sessions', 0, rows.length, rows.length));
      return rows;
    },
  );

  app.delete(
    `${ADMIN}/sessions/:id`,
    {
      config: { permission: 'signed_in' },
      schema: {
        tags,
        summary: 'End one of your sessions; ending the current one signs this browser out',
        params: SessionParams,
        response: { 200: StaffSession, ...errorResponses },
      },
    },
    async (request, reply) => {
      const target = await endOwnSession(app, staffOf(request).id, request.params.id, auditActor(request));
      const answer = view(target, request.sessionId);
      if (answer.current) reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return answer;
    },
  );

  app.post(
    `${ADMIN}/sessions/end-others`,
    {
      config: { permission: 'signed_in' },
      schema: {
        tags,
        summary: 'End every one of your sessions except this one',
        response: { 200: EndOtherSessionsResponse, ...errorResponses },
      },
    },
    async (request) => ({ ended: await endOtherSessions(app, staffOf(request).id, request.sessionId ?? '', auditActor(request)) }),
  );
};

export default sessionRoutes;
