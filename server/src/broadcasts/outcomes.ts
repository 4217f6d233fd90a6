import type { AuditEntryInput } from '../audit/record';
import type { TokenResult } from '../integrations/fcm';
import { MAX_PUSH_RETRIES, pushRetryDelayMs, pushVerdict } from '../push/retry';
import type { Claimed, PushUpdate, RecipientResult } from './batchQueries';
import type { BroadcastRow } from './sendQueries';
import { IN_DOUBT_REASON } from './recovery';

/** What a batch's sends turn into: the rules, without the statements (send.ts writes them). */

export type Send = { recipient: Claimed; pushId: number | null; tokens: string[]; earlier: TokenResult[] };

/** The outcome of a push whose request was out when its server stopped: it may have been delivered. */
export const inDoubt = (token: string): TokenResult => ({
  token,
  outcome: 'failed',
  code: 'interrupted',
  error: IN_DOUBT_REASON,
});

/**
 * FCM out of reach (its circuit open, the network down): nothing was delivered, so a broadcast tries
 * again later, as when FCM says UNAVAILABLE, rather than failing everyone at once.
 */
export const transient = (result: TokenResult): TokenResult =>
  result.outcome === 'failed' && (result.code === 'unavailable' || result.code === 'network') ? { ...result, outcome: 'deferred' } : result;

/** A push that reached no device: why, as a short code the console names ('unregistered', an FCM code, 'gave_up'). */
function failureCode(results: TokenResult[]): string {
  if (results.length > 0 && results.every((r) => r.outcome === 'dead')) return 'unregistered';
  return results.find((r) => r.outcome === 'failed')?.code ?? results[0]?.code ?? 'failed';
}

/** A push's answers from FCM, one per token it was sent to. */
export type Answered = { send: Send; results: TokenResult[] };

/**
 * A group of answered sends as push records, recipients and cap slots to give back: `sent` once one
 * device took it; deferred tokens make it `retrying` at the push service's back-off (never sooner than
 * Retry-After), or `failed` (`gave_up`) after the last retry; otherwise `failed` with its reason.
 */
export function outcomesOf(group: Answered[], now: Date): { pushes: PushUpdate[]; recipients: RecipientResult[]; givenBack: number[] } {
  const pushes: PushUpdate[] = [];
  const recipients: RecipientResult[] = [];
  const givenBack: number[] = [];
  for (const { send, results: fresh } of group) {
    const { recipient } = send;
    const pushId = send.pushId!;
    const answered = new Map(fresh.map((r) => [r.token, r]));
    const merged = send.earlier.length ? send.earlier.map((r) => answered.get(r.token) ?? r) : fresh;
    const giveUp = recipient.attempts > MAX_PUSH_RETRIES;
    const results = merged.map((r): TokenResult => {
      if (r.outcome !== 'deferred' || !answered.has(r.token)) return r;
      if (giveUp) {
        const { retry_at: _at, retry_after_ms: _after, ...rest } = r;
        return { ...rest, outcome: 'failed', error: `${r.error ?? 'FCM asked to wait'} (gave up after ${MAX_PUSH_RETRIES} retries)` };
      }
      return { ...r, retry_at: new Date(now.getTime() + pushRetryDelayMs(r.code, recipient.attempts, r.retry_after_ms)).toISOString() };
    });
    const verdict = pushVerdict(results);
    pushes.push({ id: pushId, status: verdict.status, reason: verdict.reason, results });
    if (verdict.status === 'sent') recipients.push({ client_id: recipient.client_id, status: 'sent', push_id: pushId });
    else if (verdict.status === 'queued') {
      const next = results
        .map((r) => r.retry_at)
        .filter((at): at is string => !!at)
        .sort()[0]!;
      recipients.push({
        client_id: recipient.client_id,
        status: 'retrying',
        push_id: pushId,
        retry_at: next,
        failure: results.find((r) => r.code)?.code ?? null,
      });
    } else {
      const gaveUp = giveUp && results.some((r) => /gave up/.test(r.error ?? ''));
      recipients.push({ client_id: recipient.client_id, status: 'failed', push_id: pushId, failure: gaveUp ? 'gave_up' : failureCode(results) });
      givenBack.push(recipient.client_id);
    }
  }
  return { pushes, recipients, givenBack };
}

/** Audit entries of a bulk push's first attempts: one client.push per client, as for one push. */
export const auditEntries = (broadcast: BroadcastRow, results: RecipientResult[], claimed: Map<number, Claimed>, at: Date): AuditEntryInput[] =>
  broadcast.kind !== 'bulk_push'
    ? []
    : results
        .filter((result) => claimed.get(result.client_id)?.push_id === null && result.status !== 'pending')
        .map((result) => ({
          staff:
            broadcast.created_by && broadcast.staff_user_id !== null
              ? { id: Number(broadcast.staff_user_id), email: broadcast.created_by }
              : broadcast.created_by,
          action: 'client.push',
          target_type: 'client',
          target_id: result.client_id,
          client_id: result.client_id,
          before: null,
          after: {
            title: broadcast.title,
            body: broadcast.body,
            bulk_push: broadcast.id,
            outcome: result.skip_reason ?? result.status,
            ...(result.push_id ? { push_id: result.push_id } : {}),
          },
          at,
        }));
