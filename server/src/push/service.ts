import type { Database } from '../db/client';
import type { FcmSender, PushMessage, TokenResult } from '../integrations/fcm';
import type { JobQueue } from '../jobs/queue';
import type { Clock } from '../types';
import { MAX_PUSH_RETRIES, pushRetryDelayMs, pushVerdict } from './retry';
import {
  deadTokens,
  finishPush,
  insertSendingPush,
  lockPushResults,
  markTokenDead,
  pushableRecords,
  pushByKey,
  pushText,
  recentPushes,
  settleRetryingRecipient,
  tokenResults,
} from './queries';
import { deviceTokens } from './tokens';

/** The job that tries a deferred token of a push again (payload: push_id, token, attempt). */
export const PUSH_RETRY = 'push.retry';

export type PushSender = { staffUserId: number | null; email: string } | 'automated';

export interface ClientPush {
  clientId: number;
  title: string;
  body: string;
  data?: Record<string, string>;
  /** Who sends it; 'automated' (the default) for messages no staff member sent. */
  sentBy?: PushSender;
  /** What sent it: 'console' for staff, e.g. 'missed-class' for an automated message. */
  source?: string;
  /** The same key for the same client answers the first outcome instead of sending again. */
  idempotencyKey?: string;
  /**
   * Tokens FCM defers (QUOTA_EXCEEDED, UNAVAILABLE) are retried from the job queue, and the push
   * answers 'queued'. Off: they count as failed, for callers that retry on their own (automated messages).
   */
  queueRetries?: boolean;
  signal?: AbortSignal;
}

export interface PushOutcome {
  /** True when at least one of the client's devices was reached. */
  updated: boolean;
  /** Why nothing was delivered, when `updated` is false. */
  reason?: string;
  /** FCM asked to wait: the push is queued in the job queue and retried later (`reason` says when). */
  queued?: boolean;
  push_id: number;
  results: TokenResult[];
}

export interface PushRecord {
  id: number;
  sent_by: string;
  source: string;
  title: string;
  body: string;
  status: 'sending' | 'sent' | 'failed' | 'no_token' | 'queued';
  reason: string | null;
  results: TokenResult[];
  created_at: string;
}

/** Pushes to clients through FCM and keeps the record of every push (docs/features.md; automated messages send through it too). */
export interface PushService {
  readonly mode: 'live' | 'sandbox';
  /** Sends to every device of the client, marks dead tokens, records the push. */
  sendToClient(push: ClientPush): Promise<PushOutcome>;
  /** One token, no record: marks the token dead when FCM says it is. */
  sendToToken(token: string, message: PushMessage, signal?: AbortSignal): Promise<TokenResult>;
  /** One token, nothing written: for batches that record their results and dead tokens together (broadcasts/batchQueries.ts). */
  deliver(token: string, message: PushMessage, signal?: AbortSignal): Promise<TokenResult>;
  /** The tokens a push to this client would go to, and why there are none. */
  tokensFor(clientId: number): Promise<{ tokens: string[]; reason: string | null }>;
  /** The client's pushes, newest first. */
  recent(clientId: number, limit?: number): Promise<PushRecord[]>;
  /** The PUSH_RETRY job: sends a deferred token of a recorded push again and updates the record. */
  retryToken(pushId: number, token: string, attempt: number): Promise<TokenResult | null>;
}

/** Without `jobs` a token FCM defers counts as failed (nothing could retry it). */
export function createPushService(deps: { database: Database; fcm: FcmSender; clock: Clock; jobs?: Pick<JobQueue, 'send'> }): PushService {
  const { database, fcm, clock, jobs } = deps;

  /** Queues the next try of a deferred token, or gives up on it after MAX_PUSH_RETRIES. */
  async function scheduleRetry(pushId: number, result: TokenResult, attempt: number, queue = true): Promise<TokenResult> {
    if (result.outcome !== 'deferred') return result;
    if (!jobs || !queue || attempt > MAX_PUSH_RETRIES) {
      const { retry_at: _retryAt, retry_after_ms: _asked, ...rest } = result;
      const gaveUp = jobs && queue;
      return {
        ...rest,
        outcome: 'failed',
        error: gaveUp ? `${result.error ?? 'FCM asked to wait'} (gave up after ${MAX_PUSH_RETRIES} retries)` : result.error,
      };
    }
    const runAt = new Date(clock.now().getTime() + pushRetryDelayMs(result.code, attempt, result.retry_after_ms));
    await jobs.send(PUSH_RETRY, { push_id: pushId, token: result.token, attempt }, { runAt, maxAttempts: 1 });
    return { ...result, retry_at: runAt.toISOString() };
  }

  async function markDead(result: TokenResult) {
    if (result.outcome !== 'dead') return;
    await markTokenDead(database, result.token, result.code ?? 'UNREGISTERED', clock.now());
  }

  async function tokensFor(clientId: number) {
    const records = await pushableRecords(database, clientId);
    const candidates = records.flatMap((r) => [r.firebase_token_new, r.firebase_token_current]).filter((t): t is string => !!t);
    const dead = candidates.length
      ? await deadTokens(
          database,
          candidates.map((t) => t.trim()),
        )
      : [];
    return deviceTokens(records, new Set(dead.map((row) => row.token)));
  }

  async function sendToToken(token: string, message: PushMessage, signal?: AbortSignal) {
    const result = await fcm.send(token, message, signal);
    await markDead(result);
    return result;
  }

  function outcomeOf(row: { id: number; status: string; reason: string | null; results: unknown }): PushOutcome {
    const results = tokenResults(row.results);
    const reason = row.status === 'sending' ? 'This push is still being sent' : (row.reason ?? undefined);
    return {
      updated: row.status === 'sent',
      ...(row.status === 'sent' ? {} : { reason }),
      ...(row.status === 'queued' ? { queued: true } : {}),
      push_id: row.id,
      results,
    };
  }

  return {
    mode: fcm.mode,
    tokensFor,
    sendToToken,
    deliver: (token, message, signal) => fcm.send(token, message, signal),

    async sendToClient(push) {
      const sentBy = push.sentBy ?? 'automated';
      const key = push.idempotencyKey ? `${push.clientId}:${push.idempotencyKey}` : null;
      const started = clock.now().toISOString();
      // The row exists before anything is sent: a crash mid-way leaves 'sending', never a silent push.
      const pushId = await insertSendingPush(database, {
        client_id: push.clientId,
        sent_by: sentBy === 'automated' ? 'automated' : sentBy.email,
        staff_user_id: sentBy === 'automated' ? null : sentBy.staffUserId,
        source: push.source ?? (sentBy === 'automated' ? 'automated' : 'console'),
        title: push.title,
        body: push.body,
        data: push.data ? JSON.stringify(push.data) : null,
        idempotency_key: key,
        created_at: started,
      });
      if (pushId === undefined) return outcomeOf((await pushByKey(database, key))!);
      const { tokens, reason } = await tokensFor(push.clientId);
      let results: TokenResult[] = [];
      let status: 'sent' | 'failed' | 'no_token' | 'queued' = 'no_token';
      let why: string | null = reason;
      if (tokens.length > 0) {
        // The app reports an open with this id (POST /api/app/v1/push-opened).
        const message: PushMessage = { title: push.title, body: push.body, data: { ...push.data, push_id: String(pushId) } };
        const answers = await Promise.all(tokens.map((token) => sendToToken(token, message, push.signal)));
        results = await Promise.all(answers.map((answer) => scheduleRetry(pushId, answer, 1, push.queueRetries === true)));
        ({ status, reason: why } = pushVerdict(results));
      }
      await finishPush(database, pushId, { status, reason: why, results }, clock.now());
      return outcomeOf({ id: pushId, status, reason: why, results });
    },

    async retryToken(pushId, token, attempt) {
      const push = await pushText(database, pushId);
      if (!push) return null;
      const data = (typeof push.data === 'string' ? JSON.parse(push.data) : (push.data ?? undefined)) as Record<string, string> | undefined;
      const answer = await sendToToken(token, { title: push.title, body: push.body, data: { ...data, push_id: String(pushId) } });
      const result = await scheduleRetry(pushId, answer, attempt + 1);
      // Several tokens of one push may be retried at once: the row is locked while its results change.
      await database.transaction(async (tx) => {
        const stored = await lockPushResults(tx, pushId);
        const results = stored.some((r) => r.token === token) ? stored.map((r) => (r.token === token ? result : r)) : [...stored, result];
        const verdict = pushVerdict(results);
        await finishPush(tx, pushId, { status: verdict.status, reason: verdict.reason, results }, clock.now());
        // A broadcast's push queued by an earlier version: its recipient says what became of it.
        if (verdict.status !== 'queued') await settleRetryingRecipient(tx, pushId, verdict.status);
      });
      return result;
    },

    async recent(clientId, limit = 10) {
      const rows = await recentPushes(database, clientId, limit);
      return rows.map((r) => ({ ...r, results: tokenResults(r.results), created_at: r.created_at.toISOString() }));
    },
  };
}
