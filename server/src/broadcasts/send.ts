import type { FastifyInstance } from 'fastify';
import { fillPlaceholders } from '@contract/placeholders';
import { recordAudit } from '../audit/record';
import { giveBackCapSlot, takeCapSlot } from '../automation/dailyCap';
import { inQuietHours, quietHoursEnd } from '../automation/rules';
import { loadGlobalSettings } from '../automation/settings';
import { localDay } from '../automation/time';
import { runAgainAt, type RunAgain, type RunningJob } from '../jobs/queue';
import { BROADCAST_SEND } from './store';

/** Recipients read per batch, and sent to at once (the FCM sandbox answers at once; live FCM allows 600,000 a minute per project). */
const BATCH = 200;
const AT_ONCE = 20;
/** A job sends batches for this long, then lets the lane's other jobs run (a deferral, not an attempt). */
const SLICE_MS = 20_000;

interface Recipient {
  client_id: number;
  first_name: string | null;
  last_name: string | null;
  opted_out: boolean;
}

interface BroadcastRow {
  id: number;
  kind: 'broadcast' | 'bulk_push';
  title: string;
  body: string;
  status: string;
  send_at: Date | string | null;
  staff_user_id: number | null;
  created_by: string | null;
}

type Outcome = { status: 'sent' | 'failed' | 'skipped'; skip_reason?: string; push_id?: number; reason?: string };

/**
 * The BROADCAST_SEND job: sends a broadcast's pending recipients in batches, under the automated
 * messages' rules (docs/automation.md): quiet hours defer it to their end, opted-out clients are
 * skipped, each push takes a slot of the client's daily cap, a client without a device token is
 * skipped. Each push has the idempotency key `broadcast:<id>` per client, so a batch sent again
 * after a worker stopped pushes nobody twice. A bulk push records one audit entry per client.
 */
export function createBroadcastSending(app: Pick<FastifyInstance, 'database' | 'clock' | 'push' | 'config'>) {
  const { database, clock } = app;
  const timeZone = app.config.STUDIO_TIME_ZONE;

  async function sendOne(broadcast: BroadcastRow, recipient: Recipient, cap: number, job: RunningJob): Promise<Outcome> {
    if (recipient.opted_out) return { status: 'skipped', skip_reason: 'opted_out' };
    const day = localDay(clock.now(), timeZone);
    if (!(await job.transaction((tx) => takeCapSlot(tx, recipient.client_id, day, cap)))) return { status: 'skipped', skip_reason: 'daily_cap' };
    const values = { first_name: recipient.first_name, last_name: recipient.last_name };
    const sent = await app.push.sendToClient({
      clientId: recipient.client_id,
      title: fillPlaceholders(broadcast.title, values),
      body: fillPlaceholders(broadcast.body, values),
      data: { kind: broadcast.kind, broadcast_id: String(broadcast.id) },
      sentBy: broadcast.created_by ? { staffUserId: broadcast.staff_user_id, email: broadcast.created_by } : 'automated',
      source: broadcast.kind === 'bulk_push' ? 'bulk-push' : 'broadcast',
      idempotencyKey: `broadcast:${broadcast.id}`,
      queueRetries: true,
    });
    const outcome: Outcome =
      sent.updated || sent.queued
        ? { status: 'sent', push_id: sent.push_id }
        : sent.results.length === 0
          ? { status: 'skipped', skip_reason: 'no_token', push_id: sent.push_id, reason: sent.reason }
          : { status: 'failed', push_id: sent.push_id, reason: sent.reason };
    if (outcome.status !== 'sent') await job.transaction((tx) => giveBackCapSlot(tx, recipient.client_id, day));
    return outcome;
  }

  async function record(broadcast: BroadcastRow, recipient: Recipient, outcome: Outcome, job: RunningJob) {
    await job.transaction(async (tx) => {
      await tx.query('UPDATE broadcast_recipients SET status = $3, skip_reason = $4, push_id = $5 WHERE broadcast_id = $1 AND client_id = $2', [
        broadcast.id,
        recipient.client_id,
        outcome.status,
        outcome.skip_reason ?? null,
        outcome.push_id ?? null,
      ]);
      if (broadcast.kind !== 'bulk_push') return;
      await recordAudit(tx, {
        staff:
          broadcast.created_by && broadcast.staff_user_id !== null
            ? { id: Number(broadcast.staff_user_id), email: broadcast.created_by }
            : broadcast.created_by,
        action: 'client.push',
        target_type: 'client',
        target_id: recipient.client_id,
        client_id: recipient.client_id,
        before: null,
        after: {
          title: broadcast.title,
          body: broadcast.body,
          bulk_push: broadcast.id,
          outcome: outcome.skip_reason ?? outcome.status,
          ...(outcome.push_id ? { push_id: outcome.push_id } : {}),
        },
        at: clock.now(),
      });
    });
  }

  async function send(job: RunningJob): Promise<{ status: string } | RunAgain> {
    const id = Number(job.payload.broadcast_id);
    const [broadcast] = await database.query<BroadcastRow>(
      'SELECT id, kind, title, body, status, send_at, staff_user_id, created_by FROM broadcasts WHERE id = $1',
      [id],
    );
    if (!broadcast || !['scheduled', 'sending'].includes(broadcast.status)) return { status: broadcast?.status ?? 'gone' };
    const started = clock.now();
    if (broadcast.send_at && new Date(broadcast.send_at).getTime() > started.getTime()) return runAgainAt(new Date(broadcast.send_at));
    const global = await loadGlobalSettings(database);
    if (inQuietHours(started, global, timeZone)) return runAgainAt(quietHoursEnd(started, global, timeZone));
    if (broadcast.status === 'scheduled') {
      await job.transaction((tx) =>
        tx.query("UPDATE broadcasts SET status = 'sending', started_at = $2 WHERE id = $1 AND status = 'scheduled'", [id, started.toISOString()]),
      );
    }
    while (clock.now().getTime() - started.getTime() < SLICE_MS) {
      // Cancelled meanwhile: what is still pending stays unsent.
      const [current] = await database.query<{ status: string }>('SELECT status FROM broadcasts WHERE id = $1', [id]);
      if (current?.status !== 'sending' && current?.status !== 'scheduled') return { status: current?.status ?? 'gone' };
      const batch = await database.query<Recipient>(
        `SELECT r.client_id, c.first_name, c.last_name, c.automated_messages_opt_out AS opted_out
         FROM broadcast_recipients r JOIN clients c ON c.id = r.client_id
         WHERE r.broadcast_id = $1 AND r.status = 'pending' ORDER BY r.client_id LIMIT ${BATCH}`,
        [id],
      );
      if (batch.length === 0) {
        await job.transaction((tx) =>
          tx.query("UPDATE broadcasts SET status = 'sent', finished_at = $2 WHERE id = $1 AND status = 'sending'", [id, clock.now().toISOString()]),
        );
        return { status: 'sent' };
      }
      const cap = (await loadGlobalSettings(database)).daily_cap;
      for (let at = 0; at < batch.length; at += AT_ONCE) {
        await Promise.all(
          batch.slice(at, at + AT_ONCE).map(async (recipient) => {
            const client = { ...recipient, client_id: Number(recipient.client_id) };
            await record(broadcast, client, await sendOne(broadcast, client, cap, job), job);
          }),
        );
      }
      if (inQuietHours(clock.now(), global, timeZone)) return runAgainAt(quietHoursEnd(clock.now(), global, timeZone));
    }
    return runAgainAt(clock.now());
  }

  return { send };
}

export function registerBroadcastJobs(app: FastifyInstance) {
  const sending = createBroadcastSending(app);
  app.jobs.define(BROADCAST_SEND, (job) => sending.send(job), { lane: 'messages', maxAttempts: 10, backoffMs: 30_000 });
}
