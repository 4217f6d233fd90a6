import type { FastifyInstance } from 'fastify';
import { CUSTOMERS_INDEX } from '@contract/search';
import { outsideTaskDone, outsideTaskFailed, pendingOutsideTasks } from './queries';

/** The job that tells the outside services (hosted search, RevenueCat) of an erasure; resumable. */
export const ERASE_OUTSIDE = 'client.erase-outside';

/** Tells the outside services of one erasure what is still pending; throws (the queue retries) while any fails. */
export async function eraseOutside(app: FastifyInstance, clientId: number): Promise<{ done: number; failed: number }> {
  const tasks = await pendingOutsideTasks(app.database, clientId);
  let done = 0;
  const errors: string[] = [];
  for (const task of tasks) {
    try {
      if (task.service === 'algolia') await app.searchIndexer.batch(CUSTOMERS_INDEX, [{ action: 'deleteObject', body: { objectID: String(clientId) } }]);
      else await app.revenuecat.deleteSubscriber(task.target);
      await outsideTaskDone(app.database, task.id, app.clock.now());
      done++;
    } catch (error) {
      const message = (error as Error).message.slice(0, 500);
      errors.push(`${task.service}: ${message}`);
      await outsideTaskFailed(app.database, task.id, message);
    }
  }
  if (errors.length > 0) throw new Error(`Erasure of client #${clientId} not finished outside: ${errors.join('; ')}`);
  return { done, failed: 0 };
}
