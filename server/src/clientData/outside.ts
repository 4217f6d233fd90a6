import type { FastifyInstance } from 'fastify';
import { CUSTOMERS_INDEX } from '@contract/search';

/** The job that tells the outside services (hosted search, RevenueCat) of an erasure; resumable. */
export const ERASE_OUTSIDE = 'client.erase-outside';

/** Tells the outside services of one erasure what is still pending; throws (the queue retries) while any fails. */
export async function eraseOutside(app: FastifyInstance, clientId: number): Promise<{ done: number; failed: number }> {
  const tasks = await app.database.query<{ id: number; service: 'algolia' | 'revenuecat'; target: string }>(
    `SELECT id, service, target FROM erasure_outside WHERE client_id = $1 AND state <> 'done' ORDER BY id`,
    [clientId],
  );
  let done = 0;
  const errors: string[] = [];
  for (const task of tasks) {
    try {
      if (task.service === 'algolia') await app.searchIndexer.batch(CUSTOMERS_INDEX, [{ action: 'deleteObject', body: { objectID: String(clientId) } }]);
      else await app.revenuecat.deleteSubscriber(task.target);
      // The id goes with the work: nothing of it needs keeping once the service forgot it.
      await app.database.query(
        `UPDATE erasure_outside SET state = 'done', target = '', attempts = attempts + 1, last_error = NULL, done_at = $2 WHERE id = $1`,
        [task.id, app.clock.now().toISOString()],
      );
      done++;
    } catch (error) {
      const message = (error as Error).message.slice(0, 500);
      errors.push(`${task.service}: ${message}`);
      await app.database.query(`UPDATE erasure_outside SET state = 'failed', attempts = attempts + 1, last_error = $2 WHERE id = $1`, [task.id, message]);
    }
  }
  if (errors.length > 0) throw new Error(`Erasure of client #${clientId} not finished outside: ${errors.join('; ')}`);
  return { done, failed: 0 };
}
