import type { FastifyInstance } from 'fastify';
import { createAutomationEngine, type AutomationEngine } from './engine';
import type { AutomatedSender } from './sender';
import { automationStartedAt } from './settings';

export const AUTOMATION_TICK = 'automation.tick';

export interface Automation {
  engine: AutomationEngine;
  sender: AutomatedSender;
}

export function createAutomation(app: FastifyInstance, sender: AutomatedSender): Automation {
  const engine = createAutomationEngine({ database: app.database, clock: app.clock, sender, timeZone: app.config.STUDIO_TIME_ZONE, log: app.log });
  return { engine, sender };
}

/**
 * One scheduled run every AUTOMATED_MESSAGES_INTERVAL_MINUTES (0: none; tests call the engine).
 * The queue enqueues each run once across instances; the engine is safe even when runs overlap.
 */
export async function registerAutomationJobs(app: FastifyInstance) {
  await automationStartedAt(app.database, app.clock.now());
  app.jobs.define(AUTOMATION_TICK, async (job) => app.automation.engine.tick({ heartbeat: job.heartbeat, signal: job.signal }), { maxAttempts: 1 });
  const minutes = app.config.AUTOMATED_MESSAGES_INTERVAL_MINUTES;
  if (minutes > 0) await app.jobs.schedule(AUTOMATION_TICK, AUTOMATION_TICK, minutes * 60_000);
}
