import type { Broadcast, BroadcastCreated, BroadcastStatus } from '@contract/broadcasts';
import type { ClientFilter } from '@contract/clientFilter';
import { GOAL_WINDOW_DEFAULT_DAYS, PICK_WINNER_HOURS_DEFAULT, TEST_PERCENT_DEFAULT, type WinnerMetric } from '@contract/outcomeRules';
import { recordAudit, type Actor } from '../audit/record';
import type { Database, Queryable } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import { HttpError, notFound } from '../lib/errors';
import { splitBroadcastAudience } from '../outcomes/audience';
import { isUniqueViolation, keyReused, type Intent } from '../lib/idempotency';
import { countClients } from '../segments/count';
import { segmentFilter, storedFilter } from '../segments/queries';
import {
  addBroadcast,
  broadcastByKey,
  broadcastTarget,
  getBroadcast,
  lockBroadcastStatus,
  lockDraft,
  lockDraftText,
  markCancelled,
  setBroadcastFilter,
  setDraftText,
  startBroadcast,
  startFixing,
} from './queries';
import { insertRecipients } from './recipientQueries';
import { assignVariants } from './variantQueries';

/** The job that sends a broadcast's pushes (send.ts), on the queue's messages lane. */
export const BROADCAST_SEND = 'broadcasts.send';

export interface NewBroadcast {
  kind: 'broadcast' | 'bulk_push';
  title: string;
  body: string;
  filter?: ClientFilter;
  segmentId?: number;
  clientIds?: number[];
  sendAt?: Date;
  draft?: boolean;
  goal?: { kind: string; window_days: number };
  holdoutPercent?: number;
  maxPerMinute?: number;
  /** Versions of the text (the first is `title` and `body`) and the winner's rule. */
  variants?: { title: string; body: string }[];
  testPercent?: number;
  pickWinnerAfterHours?: number;
  winnerMetric?: WinnerMetric;
}

/** The broadcast an earlier request with this key created, if any. */
async function earlierBroadcast(db: Queryable, intent: Intent): Promise<BroadcastCreated | null> {
  const row = await broadcastByKey(db, intent.key);
  if (!row) return null;
  if (row.request_digest !== intent.digest) throw keyReused();
  return { id: row.id, recipients: row.recipients, status: row.status, recipients_estimate: row.fixing_after != null };
}

interface Deps {
  database: Database;
  jobs: Pick<JobQueue, 'sendMany'>;
}

/**
 * Recipients fixed, the status set and the sending job queued, in the caller's transaction. A filter
 * selecting more than the lists count exactly (`size.estimate`) answers at once: its job fixes the
 * recipients in chunks first (recipients.ts), and `recipients` is the estimate until then.
 */
async function startSending(
  tx: Queryable,
  deps: Deps,
  id: number,
  target: { filter?: ClientFilter; clientIds?: number[] },
  sendAt: Date | undefined,
  now: Date,
  size?: { count: number; estimate: boolean },
): Promise<BroadcastCreated> {
  if (target.filter && size?.estimate) {
    const status: BroadcastStatus = sendAt ? 'scheduled' : 'sending';
    await startFixing(tx, id, status, size.count, sendAt?.toISOString() ?? null, sendAt ? null : now.toISOString());
    // Due now even when scheduled: the recipients are fixed at once, the sending waits for send_at.
    await deps.jobs.sendMany(BROADCAST_SEND, [{ payload: { broadcast_id: id }, singleton_key: `broadcast:${id}`, run_at: null }], tx);
    return { id, recipients: size.count, status, recipients_estimate: true };
  }
  const fixed = await insertRecipients(tx, id, target, now);
  if (fixed === 0) throw new HttpError(400, 'No client matches: nothing to send', [{ path: 'filter', message: 'selects no client' }]);
  const recipients = fixed - (await splitBroadcastAudience(tx, id, sendAt ?? now));
  // Versions of its text: dealt among those left, after the holdout.
  await assignVariants(tx, id);
  const status: BroadcastStatus = sendAt ? 'scheduled' : 'sending';
  await startBroadcast(tx, id, status, recipients, sendAt?.toISOString() ?? null, sendAt ? null : now.toISOString());
  await deps.jobs.sendMany(BROADCAST_SEND, [{ payload: { broadcast_id: id }, singleton_key: `broadcast:${id}`, run_at: sendAt ?? null }], tx);
  return { id, recipients, status, recipients_estimate: false };
}

const checkSendAt = (sendAt: Date | undefined, now: Date) => {
  if (sendAt && sendAt.getTime() <= now.getTime())
    throw new HttpError(400, 'send_at must be in the future (leave it out to send now)', [{ path: 'send_at', message: 'is in the past' }]);
};

/**
 * A broadcast (or a bulk push): recipients fixed now unless it is a draft, and the job queued for
 * now or `sendAt`, with its audit entry, all in one transaction. 400 when nobody matches.
 */
export async function createBroadcast(deps: Deps, input: NewBroadcast, actor: Actor, intent?: Intent): Promise<BroadcastCreated> {
  if (intent) {
    const earlier = await earlierBroadcast(deps.database, intent);
    if (earlier) return earlier;
  }
  try {
    return await insertBroadcast(deps, input, actor, intent);
  } catch (error) {
    // The same key sent twice at once: the second waited for the first and answers its broadcast.
    if (intent && isUniqueViolation(error)) {
      const earlier = await earlierBroadcast(deps.database, intent);
      if (earlier) return earlier;
    }
    throw error;
  }
}

async function insertBroadcast(deps: Deps, input: NewBroadcast, actor: Actor, intent: Intent | undefined): Promise<BroadcastCreated> {
  const now = actor.at;
  checkSendAt(input.sendAt, now);
  const filter = input.segmentId !== undefined ? await segmentFilter(deps.database, input.segmentId) : input.filter;
  const target = input.clientIds ? { clientIds: input.clientIds } : { filter: filter ?? {} };
  const size = input.clientIds ? undefined : await countClients(deps.database, filter ?? {}, now);
  if (size && size.count === 0 && !size.estimate && !input.draft)
    throw new HttpError(400, 'No client matches: nothing to send', [{ path: 'filter', message: 'selects no client' }]);
  const draftCount = input.draft ? (input.clientIds ? input.clientIds.length : size!.count) : 0;
  const versions = input.variants?.length
    ? {
        variants: input.variants,
        test_percent: input.testPercent ?? TEST_PERCENT_DEFAULT,
        pick_winner_after_hours: input.pickWinnerAfterHours ?? PICK_WINNER_HOURS_DEFAULT,
        winner_metric: input.winnerMetric ?? 'conversion',
      }
    : null;
  // With versions, the first is the broadcast's own text (what the history shows, and what is sent without a clear winner).
  const text = versions ? versions.variants[0]! : { title: input.title, body: input.body };
  return deps.database.transaction(async (tx) => {
    const id = await addBroadcast(tx, {
      kind: input.kind,
      title: text.title,
      body: text.body,
      filter: input.clientIds ? null : JSON.stringify(filter ?? {}),
      segment_id: input.segmentId ?? null,
      send_at: input.sendAt?.toISOString() ?? null,
      recipients: draftCount,
      staff_user_id: actor.staff?.id ?? null,
      created_by: actor.staff?.email ?? null,
      created_at: now.toISOString(),
      goal: input.goal?.kind ?? 'any',
      goal_window_days: input.goal?.window_days ?? GOAL_WINDOW_DEFAULT_DAYS,
      holdout_percent: input.holdoutPercent ?? 0,
      idempotency_key: intent?.key ?? null,
      request_digest: intent?.digest ?? null,
      max_per_minute: input.maxPerMinute ?? null,
      variants: versions ? JSON.stringify(versions.variants) : null,
      test_percent: versions?.test_percent ?? null,
      pick_winner_after_hours: versions?.pick_winner_after_hours ?? null,
      winner_metric: versions?.winner_metric ?? null,
    });
    const started: BroadcastCreated = input.draft
      ? { id, recipients: draftCount, status: 'draft', recipients_estimate: size?.estimate ?? false }
      : await startSending(tx, deps, id, target, input.sendAt, now, size);
    await recordAudit(tx, {
      ...actor,
      action: 'broadcast.create',
      target_type: 'broadcast',
      target_id: id,
      before: null,
      after: {
        kind: input.kind,
        title: text.title,
        body: text.body,
        ...(versions ?? {}),
        segment_id: input.segmentId ?? null,
        filter: filter ?? null,
        recipients: started.recipients,
        ...(started.recipients_estimate ? { recipients_estimate: true } : {}),
        status: started.status,
        send_at: input.sendAt?.toISOString() ?? null,
        ...(input.goal ? { goal: input.goal } : {}),
        ...(input.holdoutPercent ? { holdout_percent: input.holdoutPercent } : {}),
        ...(input.maxPerMinute ? { max_per_minute: input.maxPerMinute } : {}),
      },
    });
    return started;
  });
}

/** Sends a draft now or at `sendAt` (its segment's or filter's clients at this moment). */
export async function sendDraft(deps: Deps, id: number, sendAt: Date | undefined, actor: Actor): Promise<BroadcastCreated> {
  checkSendAt(sendAt, actor.at);
  // How many it selects, counted before the transaction (on PGlite nothing else may query during it).
  const saved = await broadcastTarget(deps.database, id);
  const counted = saved
    ? await countClients(
        deps.database,
        saved.segment_id !== null ? await segmentFilter(deps.database, saved.segment_id).catch(() => storedFilter(saved.filter)) : storedFilter(saved.filter),
        actor.at,
      )
    : undefined;
  return deps.database.transaction(async (tx) => {
    const draft = await lockDraft(tx, id);
    if (!draft) throw notFound(`No broadcast with id ${id}`);
    if (draft.status !== 'draft') throw new HttpError(409, `Broadcast ${id} is ${draft.status}, not a draft`);
    const filter = draft.segment_id !== null ? await segmentFilter(tx, draft.segment_id).catch(() => storedFilter(draft.filter)) : storedFilter(draft.filter);
    await setBroadcastFilter(tx, id, filter);
    const started = await startSending(tx, deps, id, { filter }, sendAt, actor.at, counted);
    await recordAudit(tx, {
      ...actor,
      action: 'broadcast.send',
      target_type: 'broadcast',
      target_id: id,
      before: { status: 'draft' },
      after: { status: started.status, recipients: started.recipients },
    });
    return started;
  });
}

/** A draft's new title and body; 409 once it is no longer a draft. */
export async function updateDraft(database: Database, id: number, message: { title: string; body: string }, actor: Actor): Promise<Broadcast> {
  await database.transaction(async (tx) => {
    const draft = await lockDraftText(tx, id);
    if (!draft) throw notFound(`No broadcast with id ${id}`);
    if (draft.status !== 'draft') throw new HttpError(409, `Broadcast ${id} is ${draft.status}, not a draft: only a draft can be edited`);
    await setDraftText(tx, id, message);
    await recordAudit(tx, {
      ...actor,
      action: 'broadcast.edit',
      target_type: 'broadcast',
      target_id: id,
      before: { title: draft.title, body: draft.body },
      after: { title: message.title, body: message.body },
    });
  });
  return getBroadcast(database, id);
}

/** Stops a draft, a scheduled or a sending broadcast: what was not sent yet stays unsent. 409 once it is over. */
export async function cancelBroadcast(database: Database, id: number, actor: Actor): Promise<Broadcast> {
  await database.transaction(async (tx) => {
    const status = await lockBroadcastStatus(tx, id);
    if (!status) throw notFound(`No broadcast with id ${id}`);
    if (!['draft', 'scheduled', 'sending'].includes(status)) throw new HttpError(409, `Broadcast ${id} is ${status} already`);
    await markCancelled(tx, id, actor.at);
    await recordAudit(tx, {
      ...actor,
      action: 'broadcast.cancel',
      target_type: 'broadcast',
      target_id: id,
      before: { status },
      after: { status: 'cancelled' },
    });
  });
  return getBroadcast(database, id);
}

export { getBroadcast, listBroadcasts } from './queries';
