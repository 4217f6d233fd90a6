import { fillPlaceholders } from '@contract/placeholders';
import { MESSAGE_TYPES } from '@contract/messageTypes';
import type { Database, Queryable } from '../db/client';
import { JobError, runAgainAt, type RunAgain, type RunningJob } from '../jobs/queue';
import type { Clock } from '../types';
import { giveBackCapSlot, takeCapSlot } from './dailyCapQueries';
import { deferPush, finishPush, notePushError, pendingPush, pushRecipient, setPushSlotDay, type PushRow } from './sendQueries';
import { chooseTemplate, inQuietHours, quietHoursEnd, STALE_AFTER_MS } from './rules';
import type { AutomatedSender, PushOutcome } from './sender';
import { loadGlobalSettings, loadTypeSettings } from './settings';
import { recordAutomatedAudience } from '../outcomes/audience';
import { weekOf } from '../outcomes/rules';
import { localDay } from '../lib/localTime';
import { enabledTemplatesOf, isMilestone, placeholderValues, previousTemplate, type Template } from './templates';

/** One job per planned push: the durable queue claims, leases, fences and retries it. */
export const AUTOMATION_SEND = 'automation.send';

/** message_types.slug: the `source` of an automated push in the pushes table. */
export const MESSAGE_SLUGS: Record<number, string> = Object.fromEntries(MESSAGE_TYPES.map((type) => [type.id, type.slug]));

export type SendPayload = { automated_push_id: number };
export type SendResult = { status: 'sent' | 'skipped' | 'gone'; skip_reason?: string };

interface Outcome {
  status: 'sent' | 'skipped' | 'failed';
  skip_reason?: string;
  template?: Template;
  title?: string;
  body?: string;
  local_day?: string;
  error?: string;
  pushId?: number;
}

const finish = (tx: Queryable, id: number, attempts: number, finishedAt: Date, { template, ...fields }: Outcome) =>
  finishPush(tx, id, attempts, finishedAt, { ...fields, templateId: template?.id });

/** Gives back the slot of the daily cap the push holds, if any. */
async function releaseSlot(tx: Queryable, row: PushRow) {
  if (!row.local_day) return;
  await giveBackCapSlot(tx, row.client_id, row.local_day);
  await setPushSlotDay(tx, row.id, null);
  row.local_day = null;
}

/**
 * The slot of `day`'s cap this push needs, taken atomically across workers; false when the cap is
 * reached. A push retried after its worker stopped still holds the slot it took; one from another
 * day gives that back first.
 */
async function holdSlot(tx: Queryable, row: PushRow, day: string, cap: number): Promise<boolean> {
  if (row.local_day === day) return true;
  await releaseSlot(tx, row);
  if (!(await takeCapSlot(tx, row.client_id, day, cap))) return false;
  await setPushSlotDay(tx, row.id, day);
  row.local_day = day;
  return true;
}

/**
 * The AUTOMATION_SEND job: every rule that can stop a push records why. Its writes go through
 * `job.transaction`, so a worker whose lease ran out (and whose push another worker has since taken)
 * changes nothing; the one case left where a client could get a push twice is a worker that stops
 * or stalls past its lease mid-send, as FCM has no idempotency key.
 */
export function createPushSending(deps: { database: Database; clock: Clock; sender: AutomatedSender; timeZone: string }) {
  const { database, clock, sender, timeZone } = deps;

  async function send(job: RunningJob<SendPayload>): Promise<SendResult | RunAgain> {
    const row = await pendingPush(database, Number(job.payload.automated_push_id));
    // Decided already (its job ran again after a worker stopped), or gone with its client.
    if (!row) return { status: 'gone' };
    const now = clock.now();
    const attempts = job.attempts;
    const record = (outcome: Outcome) =>
      job.transaction(async (tx) => {
        if (outcome.status !== 'sent') await releaseSlot(tx, row);
        await finish(tx, row.id, attempts, clock.now(), outcome);
      });
    const skip = async (reason: string, extra: Omit<Outcome, 'status'> = {}): Promise<SendResult> => {
      await record({ status: 'skipped', skip_reason: reason, ...extra });
      return { status: 'skipped', skip_reason: reason };
    };

    const settings = await loadTypeSettings(database, row.message_type);
    if (!settings.active) return skip('paused');
    if (now.getTime() - new Date(row.planned_for).getTime() > STALE_AFTER_MS) return skip('expired');
    const global = await loadGlobalSettings(database);
    if (inQuietHours(now, global, timeZone)) {
      // Deferred, never dropped; a deferral is not an attempt.
      const end = quietHoursEnd(now, global, timeZone);
      await job.transaction((tx) => deferPush(tx, row.id, end, attempts - 1));
      return runAgainAt(end);
    }
    // The holdout is drawn before any other rule, so the held-out clients compare with all those it was meant for.
    const heldOut = await job.transaction((tx) =>
      recordAutomatedAudience(tx, {
        automatedPushId: row.id,
        messageType: row.message_type,
        clientId: row.client_id,
        week: weekOf(localDay(now, timeZone)),
        goal: settings.goal,
        windowDays: settings.goal_window_days,
        holdoutPercent: settings.holdout_percent,
        at: now,
      }),
    );
    if (heldOut) return skip('held_out');
    const client = await pushRecipient(database, row.client_id);
    if (!client || client.opted_out) return skip('opted_out');
    const template = chooseTemplate(await enabledTemplatesOf(database, row.message_type), await previousTemplate(database, row.client_id, row.message_type), {
      messageType: row.message_type,
      milestone: isMilestone(settings, row.context),
    });
    if (!template) return skip('no_template');
    const values = placeholderValues(client, row.context);
    const title = fillPlaceholders(template.title, values);
    const body = fillPlaceholders(template.message, values);
    const day = localDay(now, timeZone);
    if (!(await job.transaction((tx) => holdSlot(tx, row, day, global.daily_cap)))) return skip('daily_cap', { template, title, body });

    let outcome: PushOutcome;
    try {
      outcome = await sender.sendToClient({
        clientId: row.client_id,
        messageType: row.message_type,
        source: MESSAGE_SLUGS[row.message_type] ?? 'automated',
        key: `automated:${row.id}:${attempts}`,
        title,
        body,
        data: { kind: 'automated', message_type: String(row.message_type), automated_push_id: String(row.id) },
      });
    } catch (error) {
      outcome = { status: 'failed', error: error instanceof Error ? error.message : String(error), retryable: true };
    }
    if (outcome.status === 'sent') {
      await record({ status: 'sent', template, title, body, local_day: day, pushId: outcome.pushId });
      return { status: 'sent' };
    }
    if (outcome.status === 'no_token') return skip('no_token', { template, title, body, error: outcome.reason, pushId: outcome.pushId });
    const error = outcome.error.slice(0, 2000);
    const retry = outcome.retryable && attempts < job.max_attempts;
    if (retry) {
      // Waits for the queue's back-off; a failed push does not use up the day's cap meanwhile.
      await job.transaction(async (tx) => {
        await releaseSlot(tx, row);
        await notePushError(tx, row.id, error, attempts);
      });
    } else {
      await record({ status: 'failed', template, title, body, error, pushId: outcome.pushId });
    }
    throw new JobError(error, { retryAfterMs: outcome.retryAfterMs, permanent: !retry });
  }

  /** The queue's onFailed: the worker sending the last attempt stopped, so the push is recorded as failed. */
  async function recordStopped(job: RunningJob<SendPayload>, error: string) {
    await job.transaction(async (tx) => {
      const row = await pendingPush(tx, Number(job.payload.automated_push_id));
      if (!row) return;
      await releaseSlot(tx, row);
      await finish(tx, row.id, job.attempts - 1, clock.now(), { status: 'failed', error });
    });
  }

  return { send, recordStopped };
}
