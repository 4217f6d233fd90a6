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
  markSending,
  openWork,
  recordPushes,
  recordRecipients,
  takeCapSlots,
  type Claimed,
  type RecipientResult,
} from './batch';
import { groupWriter } from './groupWriter';
import { auditEntries, inDoubt, outcomesOf, transient, type Answered, type BroadcastRow, type Send } from './outcomes';
import { createPacer, createThrottle, type Pacer } from './pacer';
import { fixRecipientsChunk } from './recipients';
import { recoverInterrupted } from './recovery';
import { releaseToWinner } from './variants';
import { storedFilter } from '../segments/queries';
import { BROADCAST_SEND } from './store';

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
 * Per batch: claim the due recipients, take their cap slots, read their tokens and write their push
 * records (one transaction), send with many requests in flight (paced in live mode), then write the
 * outcomes in groups. No statement touches the broadcast's or the job's row per send: the counts are
 * the recipients' rows. A recipient is `sent` once FCM accepted its message; one FCM asks to wait
 * for is `retrying` until its retry time (the push service's back-off), then `failed` after the
 * last retry. Each push keeps the idempotency key `broadcast:<id>` per client. With versions of its
 * text, each recipient gets its version's; once only the rest is left ('waiting'), the job defers
 * itself to the pick's time, picks the winner (variants.ts) and sends it to the rest.
 */
export function createBroadcastSending(app: Pick<FastifyInstance, 'database' | 'clock' | 'push' | 'config' | 'log'>, pacer?: Pacer) {
  const { database, clock } = app;
  const timeZone = app.config.STUDIO_TIME_ZONE;
  const live = app.push.mode === 'live';
  const channel = live
    ? (pacer ?? createPacer({ perMinute: app.config.FCM_QUOTA_PER_MINUTE, maxInFlight: app.config.FCM_MAX_IN_FLIGHT }))
    : createPacer({ perMinute: Number.MAX_SAFE_INTEGER, maxInFlight: SANDBOX_IN_FLIGHT, rampUp: false });

  const sentBy = (broadcast: BroadcastRow) =>
    broadcast.created_by
      ? { sent_by: broadcast.created_by, staff_user_id: broadcast.staff_user_id === null ? null : Number(broadcast.staff_user_id) }
      : { sent_by: 'automated', staff_user_id: null };

  /** One batch: claimed, prepared in one transaction, sent, its outcomes written in groups. */
  async function sendBatch(broadcast: BroadcastRow, batch: Claimed[], job: RunningJob, throttle: ReturnType<typeof createThrottle>) {
    const day = localDay(clock.now(), timeZone);
    const cap = (await loadGlobalSettings(database)).daily_cap;
    const byClient = new Map(batch.map((recipient) => [recipient.client_id, recipient]));
    const message = (r: Claimed) => {
      const values = { first_name: r.first_name, last_name: r.last_name };
      const text = (r.variant !== null && broadcast.variants?.[r.variant]) || broadcast;
      return { title: fillPlaceholders(text.title, values), body: fillPlaceholders(text.body, values) };
    };
    const key = (clientId: number) => `${clientId}:broadcast:${broadcast.id}`;
    const sends: Send[] = [];
    const settled: RecipientResult[] = [];
    const pushCommon = {
      ...sentBy(broadcast),
      source: broadcast.kind === 'bulk_push' ? 'bulk-push' : 'broadcast',
      data: { kind: broadcast.kind, broadcast_id: String(broadcast.id) },
    };
    await job.transaction(async (tx) => {
      const first = batch.filter((r) => r.push_id === null);
      const retries = batch.filter((r) => r.push_id !== null);
      for (const r of first.filter((r) => r.opted_out)) settled.push({ client_id: r.client_id, status: 'skipped', skip_reason: 'opted_out' });
      const wanting = first.filter((r) => !r.opted_out).map((r) => r.client_id);
      const slots = await takeCapSlots(tx, wanting, day, cap);
      for (const id of wanting.filter((id) => !slots.has(id))) settled.push({ client_id: id, status: 'skipped', skip_reason: 'daily_cap' });
      const tokens = await batchTokens(tx, [...slots]);
      const noToken = [...slots].filter((id) => tokens.get(id)!.tokens.length === 0);
      const records = await insertPushes(
        tx,
        noToken.map((id) => ({ client_id: id, ...message(byClient.get(id)!), status: 'no_token', reason: tokens.get(id)!.reason, idempotency_key: key(id) })),
        { ...pushCommon, at: clock.now() },
      );
      for (const id of noToken) settled.push({ client_id: id, status: 'skipped', skip_reason: 'no_token', push_id: records.get(id)?.id ?? null });
      await giveBackCapSlots(tx, noToken, day);
      for (const id of [...slots].filter((id) => tokens.get(id)!.tokens.length > 0))
        sends.push({ recipient: byClient.get(id)!, pushId: null, tokens: tokens.get(id)!.tokens, earlier: [] });
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
    });

    // A push's record is written as 'sending' just before its request leaves (a group of them per
    // statement): after a crash, a recipient without one was not sent, one with it may have been.
    const starting = groupWriter<Send, number>(async (group) => {
      const ids = new Map<Send, number>();
      await job.transaction(async (tx) => {
        const fresh = group.filter((send) => send.pushId === null);
        const records = await insertPushes(
          tx,
          fresh.map((send) => ({
            client_id: send.recipient.client_id,
            ...message(send.recipient),
            status: 'sending',
            reason: null,
            idempotency_key: key(send.recipient.client_id),
          })),
          { ...pushCommon, at: clock.now() },
        );
        for (const send of fresh) {
          const record = records.get(send.recipient.client_id)!;
          // A record from an attempt whose outcome was never written: it may have gone out, so not again.
          if (record.existing) send.earlier = record.status === 'sent' ? record.results : [inDoubt(send.tokens[0] ?? '')];
          ids.set(send, record.id);
        }
        const again = group.filter((send) => send.pushId !== null);
        await markSending(
          tx,
          again.map((send) => send.pushId!),
        );
        for (const send of again) ids.set(send, send.pushId!);
      });
      return ids;
    });
    const outcomes = groupWriter<{ send: Send; results: TokenResult[] }, void>(async (group) => {
      await writeOutcomes(broadcast, group, job, day, byClient);
      return new Map();
    });
    const data = pushCommon.data;
    await Promise.all(
      sends.map(async (send) => {
        const text = { ...message(send.recipient), data };
        let started: Promise<number> | undefined;
        const results = await Promise.all(
          send.tokens.map(async (token): Promise<TokenResult> => {
            await throttle.wait(job.signal);
            const slot = await channel.take(job.signal);
            let result: TokenResult | undefined;
            try {
              send.pushId = await (started ??= starting.add(send));
              if (send.pushId !== null && send.earlier.length > 0 && send.recipient.push_id === null)
                return send.earlier.find((r) => r.token === token) ?? send.earlier[0]!;
              // The push's id goes with it, so the app can report the open (POST /api/app/v1/push-opened).
              const withId = send.pushId === null ? text : { ...text, data: { ...data, push_id: String(send.pushId) } };
              result = transient(await app.push.deliver(token, withId, job.signal));
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
    await job.transaction(async (tx) => {
      await recordPushes(tx, pushes, now);
      await recordRecipients(tx, broadcast.id, recipients);
      await giveBackCapSlots(tx, givenBack, day);
      await recordAuditMany(tx, auditEntries(broadcast, recipients, byClient, now));
    });
  }

  async function send(job: RunningJob): Promise<{ status: string } | RunAgain> {
    const id = Number(job.payload.broadcast_id);
    const [broadcast] = await database.query<BroadcastRow>(
      `SELECT id, kind, title, body, status, send_at, staff_user_id, created_by, max_per_minute, filter, fixing_after, created_at, started_at,
              variants, pick_winner_after_hours, winner_metric
       FROM broadcasts WHERE id = $1`,
      [id],
    );
    if (!broadcast || !['scheduled', 'sending'].includes(broadcast.status)) return { status: broadcast?.status ?? 'gone' };
    broadcast.id = Number(broadcast.id);
    if (broadcast.fixing_after !== null) {
      // A large filter: its recipients are fixed first, a chunk per transaction, as of the moment it was sent.
      const fixingStarted = clock.now().getTime();
      let after: number | null = Number(broadcast.fixing_after);
      while (after !== null) {
        if (clock.now().getTime() - fixingStarted > SLICE_MS) return runAgainAt(clock.now());
        const from: number = after;
        const at = new Date(broadcast.started_at ?? broadcast.created_at);
        const sentAt = broadcast.send_at ? new Date(broadcast.send_at) : at;
        after = await job.transaction((tx): Promise<number | null> => fixRecipientsChunk(tx, id, storedFilter(broadcast.filter), at, from, sentAt));
      }
    }
    const started = clock.now();
    if (broadcast.send_at && new Date(broadcast.send_at).getTime() > started.getTime()) return runAgainAt(new Date(broadcast.send_at));
    // A batch a stopped worker left in flight: what it had not sent goes back, what it may have sent is not sent twice.
    await job.transaction((tx) => recoverInterrupted(tx, id, clock.now(), timeZone));
    const global = await loadGlobalSettings(database);
    if (inQuietHours(started, global, timeZone)) return runAgainAt(quietHoursEnd(started, global, timeZone));
    if (broadcast.status === 'scheduled') {
      await job.transaction((tx) =>
        tx.query("UPDATE broadcasts SET status = 'sending', started_at = $2 WHERE id = $1 AND status = 'scheduled'", [id, started.toISOString()]),
      );
    }
    const throttle = createThrottle(broadcast.max_per_minute === null ? null : Number(broadcast.max_per_minute));
    // Waiting on FCM's pace must not cost the lease: it is renewed while the batch is out.
    const beat = setInterval(() => void job.heartbeat().catch(() => undefined), HEARTBEAT_MS);
    try {
      while (clock.now().getTime() - started.getTime() < SLICE_MS) {
        // Cancelled meanwhile: what is still pending stays unsent.
        const [current] = await database.query<{ status: string }>('SELECT status FROM broadcasts WHERE id = $1', [id]);
        if (current?.status !== 'sending' && current?.status !== 'scheduled') return { status: current?.status ?? 'gone' };
        const batch = await job.transaction((tx) => claimBatch(tx, id, clock.now(), BATCH));
        if (batch.length === 0) {
          const left = await openWork(database, id);
          if (left.waiting > 0 && left.open === 0 && broadcast.variants) {
            // The test part is out: the rest waits for the winner, picked by this job when its hours are up.
            const due = new Date(new Date(broadcast.started_at ?? started).getTime() + Number(broadcast.pick_winner_after_hours) * 3_600_000);
            if (due.getTime() > clock.now().getTime()) return runAgainAt(left.nextRetry && left.nextRetry < due ? left.nextRetry : due);
            const versions = { id, variants: broadcast.variants, winner_metric: broadcast.winner_metric ?? 'conversion' };
            await job.transaction((tx) => releaseToWinner(tx, versions, clock.now()));
            continue;
          }
          if (left.open === 0 && left.retrying === 0) {
            await job.transaction((tx) =>
              tx.query("UPDATE broadcasts SET status = 'sent', finished_at = $2 WHERE id = $1 AND status = 'sending'", [id, clock.now().toISOString()]),
            );
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
