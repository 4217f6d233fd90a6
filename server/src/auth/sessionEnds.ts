import type { FastifyInstance } from 'fastify';
import { recordAudit, type Actor } from '../audit/record';
import { notFound } from '../lib/errors';
import type { ActiveSession } from './sessions';

/** 'My sessions' (ASVS 7.4): a staff member ends their own sessions, each ending audited with it. */

type App = Pick<FastifyInstance, 'database' | 'sessions'>;

/** Ends one of the staff member's sessions by its public id; 404 when it has already ended. */
export async function endOwnSession(app: App, staffId: number, sessionId: string, actor: Actor): Promise<ActiveSession> {
  const target = (await app.sessions.listActive(staffId)).find((session) => session.id === sessionId);
  if (!target) throw notFound('That session has already ended.');
  await app.database.transaction(async (tx) => {
    await app.sessions.end(staffId, target.storedId, tx);
    await recordAudit(tx, {
      ...actor,
      action: 'session.end',
      target_type: 'session',
      target_id: target.id,
      before: { ip: target.ip, user_agent: target.user_agent, created_at: target.created_at.toISOString() },
      after: null,
    });
  });
  return target;
}

/** Ends every session of the staff member but `keepStoredId` (the caller's); how many ended. */
export function endOtherSessions(app: App, staffId: number, keepStoredId: string, actor: Actor): Promise<number> {
  return app.database.transaction(async (tx) => {
    const count = await app.sessions.endOthers(staffId, keepStoredId, tx);
    if (count > 0) {
      await recordAudit(tx, { ...actor, action: 'session.end', target_type: 'session', target_id: 'others', before: { sessions: count }, after: null });
    }
    return count;
  });
}
