import type { FastifyInstance } from 'fastify';
import { AUTOMATION_SEND, createAutomationEngine, type AutomationEngine } from './engine';
import { MAX_SEND_ATTEMPTS, SEND_RETRY_BASE_MS } from './rules';
import type { AutomatedSender } from './sender';
import { automationStartedAt } from './settings';

export const AUTOMATION_TICK = 'automation.tick';

export interface Automation {
  engine: AutomationEngine;
  sender: AutomatedSender;
}

export function createAutomation(app: FastifyInstance, sender: AutomatedSender): Automation {
  const engine = createAutomationEngine({
    database: app.database,
    clock: app.clock,
    sender,
    timeZone: app.config.STUDIO_TIME_ZONE,
    jobs: app.jobs,
    log: app.log,
  });
  return { engine, sender };
}

/**
 * AUTOMATION_TICK plans, every AUTOMATED_MESSAGES_INTERVAL_MINUTES (server/src/schedules.ts; 0: no
 * schedule, tests call the engine). Each planned push is an AUTOMATION_SEND job, retried 1, 2, 4
 * minutes apart by the queue. Both run in the `messages` lane, so a Monday's thousands of pushes
 * never hold back the short jobs of the `default` lane.
 */
export async function registerAutomationJobs(app: FastifyInstance) {
  await automationStartedAt(app.database, app.clock.now());
  app.jobs.define(AUTOMATION_TICK, async (job) => ({ planned: await app.automation.engine.plan(job.heartbeat) }), { maxAttempts: 1, lane: 'messages' });
  const { sending } = app.automation.engine;
  app.jobs.define(AUTOMATION_SEND, sending.send, {
    lane: 'messages',
    maxAttempts: MAX_SEND_ATTEMPTS,
    backoffMs: SEND_RETRY_BASE_MS,
    onFailed: sending.recordStopped,
  });
}
