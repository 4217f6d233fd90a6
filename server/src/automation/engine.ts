import type { Database } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import type { Clock } from '../types';
import type { AutomatedSender } from './sender';
import { loadAllTypeSettings } from './settings';
import { LOOKBACK_MS, MESSAGE_TYPES, planEvents } from './planning';
import { AUTOMATION_SEND, createPushSending, MESSAGE_SLUGS } from './send';
import { enabledTemplates, isMilestone, placeholderValues, previousTemplate, type Template } from './templates';

export { enabledTemplates, isMilestone, placeholderValues, previousTemplate, type Template };
export { AUTOMATION_SEND, LOOKBACK_MS, MESSAGE_SLUGS, MESSAGE_TYPES };

export interface EngineDeps {
  database: Database;
  clock: Clock;
  sender: AutomatedSender;
  timeZone: string;
  jobs: Pick<JobQueue, 'sendMany' | 'drain'>;
  log: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
}

/**
 * The engine. `plan()` (the scheduled AUTOMATION_TICK job) turns every trigger's events into
 * automated_pushes, each with its AUTOMATION_SEND job on the durable queue (the unique event key
 * makes a second instance's or a repeated plan a no-op); the queue's `messages` lane then sends them
 * on every instance, one job per push, with the queue's claims, leases, fencing and retries.
 */
export function createAutomationEngine(deps: EngineDeps) {
  const { database, clock, timeZone, jobs } = deps;
  const sending = createPushSending(deps);

  /** `heartbeat`: the planning job's, between statements (a Monday's plan reaches every client). */
  async function plan(heartbeat?: () => Promise<void>): Promise<number> {
    const planned = await planEvents(
      database,
      await loadAllTypeSettings(database),
      clock.now(),
      timeZone,
      (tx, pushes) =>
        jobs.sendMany(
          AUTOMATION_SEND,
          pushes.map((push) => ({ payload: { automated_push_id: push.id }, singleton_key: String(push.id), run_at: push.due_at })),
          tx,
        ),
      heartbeat,
    );
    if (planned > 0) deps.log.info({ planned }, 'automated messages planned');
    return planned;
  }

  return {
    plan,
    /** The AUTOMATION_SEND job's handler and its onFailed. */
    sending,
    /**
     * Plans, then sends what is due on this instance's own worker until nothing is left: what a
     * scheduled run and the lanes do together, at once (tests, and a run started by hand).
     */
    async tick(): Promise<{ planned: number; ran: number }> {
      const planned = await plan();
      return { planned, ran: await jobs.drain([AUTOMATION_SEND]) };
    },
  };
}

export type AutomationEngine = ReturnType<typeof createAutomationEngine>;
