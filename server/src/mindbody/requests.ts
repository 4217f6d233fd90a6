import type { FastifyInstance } from 'fastify';
import { recordAudit, type Actor } from '../audit/record';
import { startMindbodySync } from './jobs';

/**
 * Staff's 'import now': refused at once (503, retry in N s) while repeated Mindbody failures keep
 * its breaker open, rather than queueing a doomed import; else queued, or joined to the import under
 * way. The job queue writes through its own connection, so the audit entry follows the queued job.
 */
export async function requestMindbodySync(app: FastifyInstance, options: { full?: boolean }, actor: Actor): Promise<{ job_id: number; started: boolean }> {
  app.mindbody.checkAvailable?.();
  const { id, created } = await startMindbodySync(app, { full: options.full });
  if (created) {
    await recordAudit(app.database, {
      ...actor,
      action: 'mindbody_sync.start',
      target_type: 'mindbody_sync',
      target_id: id,
      after: { full: options.full === true },
    });
  }
  return { job_id: id, started: created };
}
