import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../../contract/common';
import { contentRange } from '../../../contract/raSimpleRest';
import { EndOtherSessionsResponse, SessionParams, StaffSession } from '../../../contract/sessions';
import { auditActor, recordAudit } from '../audit/record';
import { SESSION_COOKIE, type ActiveSession } from '../auth/sessions';
import { HttpError, notFound } from '../lib/errors';

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
    if (!request.staff) throw new HttpError(401, 'Authentication required: sign in at the login page first.');
    return request.staff;
  };

  app.get(
    `${ADMIN}/sessions`,
    {
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
      schema: {
        tags,
        summary: 'End one of your sessions; ending the current one signs this browser out',
        params: SessionParams,
        response: { 200: StaffSession, ...errorResponses },
      },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      const target = (await app.sessions.listActive(staff.id)).find((session) => session.id === request.params.id);
      if (!target) throw notFound('That session has already ended.');
      await app.db.transaction(async (tx) => {
        await app.sessions.end(staff.id, target.storedId, tx);
        await recordAudit(tx, {
          ...auditActor(request),
          action: 'session.end',
          target_type: 'session',
          target_id: target.id,
          before: { ip: target.ip, user_agent: target.user_agent, created_at: target.created_at.toISOString() },
          after: null,
        });
      });
      const answer = view(target, request.sessionId);
      if (answer.current) reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return answer;
    },
  );

  app.post(
    `${ADMIN}/sessions/end-others`,
    {
      schema: {
        tags,
        summary: 'End every one of your sessions except this one',
        response: { 200: EndOtherSessionsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const ended = await app.db.transaction(async (tx) => {
        const count = await app.sessions.endOthers(staff.id, request.sessionId ?? '', tx);
        if (count > 0) {
          await recordAudit(tx, { ...auditActor(request), action: 'session.end', target_type: 'session', target_id: 'others', before: { sessions: count }, after: null });
        }
        return count;
      });
      return { ended };
    },
  );
};

export default sessionRoutes;
