import type { AutomationTypeSettings } from '@contract/automation';
import type { Database, Queryable } from '../db/client';
import { automationStartedAt } from './settings';
import { advancePlanMark, clientIdRange, insertPlannedPushes, planMarks } from './planQueries';
import { candidateQuery } from './triggerQueries';
import { isWeeklyType, MESSAGE_TYPE_IDS } from '@contract/messageTypes';

export const MESSAGE_TYPES = MESSAGE_TYPE_IDS;
/** Events older than this are not planned any more (an outage longer than that is not caught up). */
export const LOOKBACK_MS = 48 * 60 * 60_000;

/**
 * Triggers whose events never arrive late (weekly moments, absences measured in days): planned
 * from where the previous run stopped. Visit triggers look back the whole LOOKBACK_MS every run
 * because Mindbody imports bring visits in after the fact.
 */
const PLANNED_FROM_MARK = new Set<number>([...MESSAGE_TYPE_IDS.filter(isWeeklyType), 6]);
/** Catching up (first run, an outage) goes an hour of events per statement, so none runs long. */
const CATCH_UP_STEP_MS = 60 * 60_000;
/** Weekly triggers reach every client: planned this many client ids per statement. */
const CLIENTS_PER_STATEMENT = 20_000;
const WEEKLY = new Set<number>(MESSAGE_TYPE_IDS.filter(isWeeklyType));

/** Queues the sending of pushes just planned, in the transaction that planned them (`tx`). */
export type EnqueuePushes = (tx: Queryable, pushes: { id: number; due_at: Date }[]) => Promise<unknown>;

/**
 * Plans every active trigger's events of (from, now] into automated_pushes, each with its sending
 * job queued in the same transaction. The unique event key makes planning an event twice (another
 * instance, a repeated window) a no-op. Each statement is kept small: PGlite has one connection, and
 * one long statement stalls every request behind it.
 */
export async function planEvents(
  database: Database,
  types: Map<number, AutomationTypeSettings>,
  now: Date,
  timeZone: string,
  enqueue: EnqueuePushes,
  /** Called between statements, outside their transactions (the planning job's heartbeat). */
  between: () => Promise<void> = async () => undefined,
): Promise<number> {
  const started = await automationStartedAt(database, now);
  const lookbackFrom = Math.max(started.getTime(), now.getTime() - LOOKBACK_MS);
  const marks = await planMarks(database);
  let planned = 0;
  for (const type of MESSAGE_TYPES) {
    const settings = types.get(type)!;
    const marked = PLANNED_FROM_MARK.has(type);
    // A paused type plans nothing, and its mark still moves on: turning it back on does not replay what happened meanwhile.
    if (settings.active) {
      const from = marked ? Math.max(lookbackFrom, marks.get(type) ?? 0) : lookbackFrom;
      const step = marked ? CATCH_UP_STEP_MS : Number.POSITIVE_INFINITY;
      for (let stepFrom = from; stepFrom < now.getTime(); stepFrom += step) {
        const window = { from: new Date(stepFrom), to: new Date(Math.min(stepFrom + step, now.getTime())) };
        planned += await planWindow(database, type, settings, window, timeZone, now, enqueue, between);
      }
    }
    if (marked) {
      await advancePlanMark(database, type, now);
    }
  }
  return planned;
}

async function planWindow(
  database: Database,
  type: number,
  settings: AutomationTypeSettings,
  window: { from: Date; to: Date },
  timeZone: string,
  now: Date,
  enqueue: EnqueuePushes,
  between: () => Promise<void>,
) {
  const query = candidateQuery(type, settings, window, timeZone);
  if (!query) return 0;
  const insert = (clientRange?: { low: number; high: number }) =>
    database
      .transaction(async (tx) => {
        const planned = await insertPlannedPushes(tx, query, type, now, clientRange);
        await enqueue(tx, planned);
        return planned;
      })
      .finally(between);
  if (!WEEKLY.has(type)) return (await insert()).length;
  const range = await clientIdRange(database);
  if (range?.low == null || range.high == null) return 0;
  let planned = 0;
  for (let low = range.low; low <= range.high; low += CLIENTS_PER_STATEMENT) {
    planned += (await insert({ low, high: low + CLIENTS_PER_STATEMENT })).length;
  }
  return planned;
}
