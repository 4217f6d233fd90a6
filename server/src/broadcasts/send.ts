import type { FastifyInstance } from 'fastify';
import { fillPlaceholders } from '@contract/placeholders';
import { recordAuditMany } from '../audit/record';
import { inQuietHours, quietHoursEnd } from '../automation/rules';
import { loadGlobalSettings } from '../automation/settings';
import { localDay } from '../lib/localTime';
import type { TokenResult } from '../integrations/fcm';
import { runAgainAt, type RunAgain, type RunningJob } from '../jobs/queue';
import {
  batchTokens,
  claimBatch,
  deferredTokens,
  giveBackCapSlots,
  insertPushes,
  existingPushes,
  newPushIds,
  openWork,
  recordPushes,
  recordRecipients,
  takeCapSlots,
  type Claimed,
  type RecipientResult,
} from './batchQueries';
import { groupWriter } from './groupWriter';
import { auditEntries, inDoubt, outcomesOf, transient, type Answered, type Send } from './outcomes';
import { createPacer, createThrottle, type Pacer } from './pacer';
import { fixRecipientsChunk } from './recipients';
import { recoverInterrupted } from './recovery';
import { releaseToWinner } from './variants';
import { storedFilter } from '../segments/queries';
import { BROADCAST_SEND } from './store';
import { broadcastStatus, markSending, markSent, sendingBroadcast, type BroadcastRow } from './sendQueries';

/** Recipients claimed per batch; their outcomes are written a group at a time as they come back (groupWriter.ts). */
const BATCH = 500;
/** A job sends batches for this long, then lets the lane's other jobs run (a deferral, not an attempt). */
const SLICE_MS = 20_000;
/**
 * The job's lease is short and renewed while it sends: after a crash the broadcast goes on within
 * this long of the stop, on whichever instance polls first.
 */
export const BROADCAST_LEASE_MS = 20_000;
const HEARTBEAT_MS = 5_000;
/** In the sandbox (nothing leaves the machine) this many sends at once; live FCM is paced (pacer.ts). */
const SANDBOX_IN_FLIGHT = 64;

/**
 * The BROADCAST_SEND job (docs/automation.md#broadcasts): works through a broadcast's recipients in
 * batches under the automated messages' rules: quiet hours defer it, opted-out clients are skipped,
 * each push takes a slot of the client's daily cap, a client without a device token is skipped.
 * Per batch: one transaction claims the due recipients, takes their cap slots, reads their tokens and
 * writes their push records ('sending' for those about to go out); then the sends go with many
 * requests in flight (paced in live mode) and their outcomes are written in groups. No statement
 * touches the broadcast's or the job's row per send: the counts are the recipients' rows. A recipient
 * is `sent` once FCM accepted its message; one FCM asks to wait for is `retrying` until its retry time
 * (the push service's back-off), then `failed` after the last retry. Each push keeps the idempotency
 * key `<client id>:broadcast:<id>`, also its collapse key on the device. With versions of its text,
 * each recipient gets its version's; once only the rest is left ('waiting'), the job defers itself to
 * the pick's time, picks the winner (variants.ts) and sends it to the rest.
 */
export function createBroadcastSending(app: Pick<FastifyInstance, 'database' | 'clock' | 'push' | 'config' | 'log'>, pacer?: Pacer) {
  const { database, clock } = app;
  const timeZone = app.config.STUDIO_TIME_ZONE;
  const live = app.push.mode === 'live';
  const channel = live
    ? (pacer ?? createPacer({ perMinute: app.config.FCM_QUOTA_PER_MINUTE, maxInFlight: app.config.FCM_MAX_IN_FLIGHT }))
    : createPacer({ perMinute: Number.MAX_SAFE_INTEGER, maxInFlight: SANDBOX_IN_FLIGHT, rampUp: false });

  const pushCommonOf = (broadcast: BroadcastRow) => ({
    ...(broadcast.created_by ? { sent_by: broadcast.created_by, staff_user_id: broadcast.staff_user_id } : { sent_by: 'automated', staff_user_id: null }),
    source: broadcast.kind === 'bulk_push' ? 'bulk-push' : 'broadcast',
    data: { kind: broadcast.kind, broadcast_id: String(broadcast.id) },
  });

  const key = (broadcast: BroadcastRow, clientId: number) => `${clientId}:broadcast:${broadcast.id}`;
  const message = (broadcast: BroadcastRow, r: Claimed) => {
    const values = { first_name: r.first_name, last_name: r.last_name };
    const text = (r.variant !== null && broadcast.variants?.[r.variant]) || broadcast;
    return { title: fillPlaceholders(text.title, values), body: fillPlaceholders(text.body, values) };
  };

  /**
   * One transaction for a batch: claim the due recipients, apply the rules (opt-out, daily cap, device
   * tokens), write the skipped ones and take an id for each push about to go out. Its record is written
   * once, with its outcome. A batch a stopped worker left is claimed again (recovery.ts) and sent again
   * with the same collapse key, so a device that got it the first time shows it once.
   */
  async function prepareBatch(broadcast: BroadcastRow, job: RunningJob): Promise<{ sends: Send[]; byClient: Map<number, Claimed>; day: string } | null> {
    const day = localDay(clock.now(), timeZone);
    const cap = (await loadGlobalSettings(database)).daily_cap;
    const pushCommon = pushCommonOf(broadcast);
    return job.transaction(async (tx) => {
      const batch = await claimBatch(tx, broadcast.id, clock.now(), BATCH);
      if (batch.length === 0) return null;
      const byClient = new Map(batch.map((recipient) => [recipient.client_id, recipient]));
      const sends: Send[] = [];
      const settled: RecipientResult[] = [];
      const first = batch.filter((r) => r.push_id === null);
      const retries = batch.filter((r) => r.push_id !== null);
      for (const r of first.filter((r) => r.opted_out)) settled.push({ client_id: r.client_id, status: 'skipped', skip_reason: 'opted_out' });
      const wanting = first.filter((r) => !r.opted_out).map((r) => r.client_id);
      const slots = await takeCapSlots(tx, wanting, day, cap);
      for (const id of wanting.filter((id) => !slots.has(id))) settled.push({ client_id: id, status: 'skipped', skip_reason: 'daily_cap' });
      const tokens = await batchTokens(tx, [...slots]);
      const noToken = [...slots].filter((id) => tokens.get(id)!.tokens.length === 0);
      const withTokens = [...slots].filter((id) => tokens.get(id)!.tokens.length > 0);
      // Records of an earlier attempt (claimed before a stop: attempts > 1): an outcome written then stands.
      const written = await existingPushes(
        tx,
        first.filter((r) => !r.opted_out && r.attempts > 1).map((r) => key(broadcast, r.client_id)),
      );
      const records = await insertPushes(
        tx,
        noToken
          .filter((id) => !written.has(id))
          .map((id) => ({
            client_id: id,
            ...message(broadcast, byClient.get(id)!),
            status: 'no_token',
            reason: tokens.get(id)!.reason,
            idempotency_key: key(broadcast, id),
          })),
        { ...pushCommon, at: clock.now() },
      );
      for (const id of noToken.filter((id) => !written.has(id)))
        settled.push({ client_id: id, status: 'skipped', skip_reason: 'no_token', push_id: records.get(id)?.id ?? null });
      await giveBackCapSlots(
        tx,
        noToken.filter((id) => !written.has(id)),
        day,
      );
      const ids = await newPushIds(tx, withTokens.filter((id) => !written.has(id)).length);
      for (const id of [...withTokens, ...noToken.filter((id) => written.has(id))]) {
        const earlier = written.get(id);
        const send: Send = { recipient: byClient.get(id)!, pushId: earlier?.id ?? ids.shift()!, tokens: tokens.get(id)!.tokens, earlier: [] };
        // Written with its outcome before a stop: that outcome stands and nothing goes out again.
        if (earlier) send.earlier = earlier.results.length > 0 ? earlier.results : [inDoubt(send.tokens[0] ?? '')];
        sends.push(send);
      }
      const previous = await deferredTokens(
        tx,
        retries.map((r) => r.push_id!),
      );
      for (const r of retries) {
        const earlier = previous.get(r.push_id!) ?? [];
        sends.push({ recipient: r, pushId: r.push_id!, tokens: earlier.filter((t) => t.outcome === 'deferred').map((t) => t.token), earlier });
      }
      await recordRecipients(tx, broadcast.id, settled);
      await recordAuditMany(tx, auditEntries(broadcast, settled, byClient, clock.now()));
      return { sends, byClient, day };
    });
  }

  /** Sends a prepared batch with many requests in flight (paced in live mode); its outcomes are written in groups. */
  async function sendBatch(
    broadcast: BroadcastRow,
    prepared: { sends: Send[]; byClient: Map<number, Claimed>; day: string },
    job: RunningJob,
    throttle: ReturnType<typeof createThrottle>,
  ) {
    const { sends, byClient, day } = prepared;
    const outcomes = groupWriter<{ send: Send; results: TokenResult[] }, void>(async (group) => {
      await writeOutcomes(broadcast, group, job, day, byClient);
      return new Map();
    });
    const data = pushCommonOf(broadcast).data;
    await Promise.all(
      sends.map(async (send) => {
        // Its outcome is known already (written before a stop): nothing goes out again.
        const known = send.earlier.length > 0 && send.recipient.push_id === null;
        const collapseKey = key(broadcast, send.recipient.client_id);
        // The push's id goes with it, so the app can report the open (POST /api/app/v1/push-opened).
        const text = { ...message(broadcast, send.recipient), data: { ...data, push_id: String(send.pushId) }, collapse_key: collapseKey };
        const results = known
          ? []
          : await Promise.all(
              send.tokens.map(async (token): Promise<TokenResult> => {
                await throttle.wait(job.signal);
                const slot = await channel.take(job.signal);
                let result: TokenResult | undefined;
                try {
                  result = transient(await app.push.deliver(token, text, job.signal));
                  // Stopped while the request was out: it may have arrived, so its outcome is not known. The
                  // recipient stays claimed and the next run sends it again under the same collapse key.
                  if (job.signal.aborted) throw job.signal.reason;
                  return result;
                } finally {
                  slot.release({ deferred: result?.outcome === 'deferred', retryAfterMs: result?.retry_after_ms });
                }
              }),
            );
        await outcomes.add({ send, results });
      }),
    );
  }

  /** Writes a group of outcomes: pushes, dead tokens, recipients, cap slots given back and audit entries, in one transaction. */
  async function writeOutcomes(broadcast: BroadcastRow, group: Answered[], job: RunningJob, day: string, byClient: Map<number, Claimed>) {
    const now = clock.now();
    const { pushes, recipients, givenBack } = outcomesOf(group, now);
    const sendOf = new Map(group.map(({ send }) => [send.pushId!, send]));
    const records = pushes.map((push) => {
      const { recipient } = sendOf.get(push.id)!;
      return { ...push, client_id: recipient.client_id, ...message(broadcast, recipient), idempotency_key: key(broadcast, recipient.client_id) };
    });
    const { sent_by, staff_user_id, source, data } = pushCommonOf(broadcast);
    await job.transaction(async (tx) => {
      await recordPushes(tx, records, { sent_by, staff_user_id, source, data }, now);
      await recordRecipients(tx, broadcast.id, recipients);
      await giveBackCapSlots(tx, givenBack, day);
      await recordAuditMany(tx, auditEntries(broadcast, recipients, byClient, now));
    });
  }

  async function send(job: RunningJob): Promise<{ status: string } | RunAgain> {
    const id = Number(job.payload.broadcast_id);
    const broadcast = await sendingBroadcast(database, id);
    if (!broadcast || !['scheduled', 'sending'].includes(broadcast.status)) return { status: broadcast?.status ?? 'gone' };
    if (broadcast.fixing_after !== null) {
      // A large filter: its recipients are fixed first, a chunk per transaction, as of the moment it was sent.
      const fixingStarted = clock.now().getTime();
      let after: number | null = broadcast.fixing_after;
      while (after !== null) {
        if (clock.now().getTime() - fixingStarted > SLICE_MS) return runAgainAt(clock.now());
        const from: number = after;
        const at = broadcast.started_at ?? broadcast.created_at;
        const sentAt = broadcast.send_at ?? at;
        after = await job.transaction((tx): Promise<number | null> => fixRecipientsChunk(tx, id, storedFilter(broadcast.filter), at, from, sentAt));
      }
    }
    const started = clock.now();
    if (broadcast.send_at && broadcast.send_at.getTime() > started.getTime()) return runAgainAt(broadcast.send_at);
    // A batch a stopped worker left in flight is claimed again; what it may have sent goes again under the same collapse key.
    await job.transaction((tx) => recoverInterrupted(tx, id, clock.now(), timeZone));
    const global = await loadGlobalSettings(database);
    if (inQuietHours(started, global, timeZone)) return runAgainAt(quietHoursEnd(started, global, timeZone));
    if (broadcast.status === 'scheduled') {
      await job.transaction((tx) => markSending(tx, id, started));
    }
    const throttle = createThrottle(broadcast.max_per_minute);
    // Waiting on FCM's pace must not cost the lease: it is renewed while the batch is out.
    const beat = setInterval(() => void job.heartbeat().catch(() => undefined), HEARTBEAT_MS);
    try {
      while (clock.now().getTime() - started.getTime() < SLICE_MS) {
        // Cancelled meanwhile: what is still pending stays unsent.
        const current = await broadcastStatus(database, id);
        if (current !== 'sending' && current !== 'scheduled') return { status: current ?? 'gone' };
        const batch = await prepareBatch(broadcast, job);
        if (batch === null) {
          const left = await openWork(database, id);
          if (left.waiting > 0 && left.open === 0 && broadcast.variants) {
            // The test part is out: the rest waits for the winner, picked by this job when its hours are up.
            const due = new Date((broadcast.started_at ?? started).getTime() + Number(broadcast.pick_winner_after_hours) * 3_600_000);
            if (due.getTime() > clock.now().getTime()) return runAgainAt(left.nextRetry && left.nextRetry < due ? left.nextRetry : due);
            const versions = { id, variants: broadcast.variants, winner_metric: broadcast.winner_metric ?? 'conversion' };
            await job.transaction((tx) => releaseToWinner(tx, versions, clock.now()));
            continue;
          }
          if (left.open === 0 && left.retrying === 0) {
            await job.transaction((tx) => markSent(tx, id, clock.now()));
            return { status: 'sent' };
          }
          // Only retries are left: back when the first is due (a push.retry of an earlier version: in a minute).
          return runAgainAt(left.nextRetry ?? new Date(clock.now().getTime() + 60_000));
        }
        await sendBatch(broadcast, batch, job, throttle);
        if (inQuietHours(clock.now(), global, timeZone)) return runAgainAt(quietHoursEnd(clock.now(), global, timeZone));
      }
      return runAgainAt(clock.now());
    } finally {
      clearInterval(beat);
    }
  }

  return { send, pacer: channel };
}

export function registerBroadcastJobs(app: FastifyInstance) {
  const sending = createBroadcastSending(app);
  app.jobs.define(BROADCAST_SEND, (job) => sending.send(job), { lane: 'messages', maxAttempts: 10, backoffMs: 30_000, leaseMs: BROADCAST_LEASE_MS });
}
