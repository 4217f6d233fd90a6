import type { FastifyInstance } from 'fastify';
import { requireLiveClient } from './erase';

/** The staff calls that change one client, by their route: `/api/admin/v1/clients/:id/…`. */
const CLIENT_CHANGE = /^\/api\/admin\/v1\/clients\/:id\/(?!erase$)[a-z-]+$/;
const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * An erased client is a row kept for the figures, with nothing left that names them: a note, a tag,
 * a logged contact, a snooze or an override written afterwards would start a new record of them.
 * Every call that changes one client answers 410 for an erased one (the session guard has already
 * answered who may call it), so no area has to remember it.
 */
export function refuseChangesToErasedClients(app: FastifyInstance) {
  app.addHook('preHandler', async (request) => {
    const route = request.routeOptions.url;
    if (!route || !CHANGES.has(request.method) || !CLIENT_CHANGE.test(route)) return;
    const id = Number((request.params as { id?: string }).id);
    if (Number.isSafeInteger(id) && id > 0) await requireLiveClient(app.database, id);
  });
}
