import type { Database } from '../db/client';
import type { FcmSender, PushMessage, TokenResult } from '../integrations/fcm';
import type { Clock } from '../types';
import { deviceTokens, type TokenRecord } from './tokens';

// Debug records read per push: a device that has not reported among these is long gone.
const RECORDS_READ = 50;

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
  signal?: AbortSignal;
}

export interface PushOutcome {
  /** True when at least one of the client's devices was reached. */
  updated: boolean;
  /** Why nothing was delivered, when `updated` is false. */
  reason?: string;
  push_id: number;
  results: TokenResult[];
}

export interface PushRecord {
  id: number;
  sent_by: string;
  source: string;
  title: string;
  body: string;
  status: 'sending' | 'sent' | 'failed' | 'no_token';
  reason: string | null;
  results: TokenResult[];
  created_at: string;
}

/** Pushes to clients through FCM and keeps the record of every push (issue 5; issue 12 sends through it too). */
export interface PushService {
  readonly mode: 'live' | 'sandbox';
  /** Sends to every device of the client, marks dead tokens, records the push. */
  sendToClient(push: ClientPush): Promise<PushOutcome>;
  /** One token, no record: marks the token dead when FCM says it is. */
  sendToToken(token: string, message: PushMessage, signal?: AbortSignal): Promise<TokenResult>;
  /** The tokens a push to this client would go to, and why there are none. */
  tokensFor(clientId: number): Promise<{ tokens: string[]; reason: string | null }>;
  /** The client's pushes, newest first. */
  recent(clientId: number, limit?: number): Promise<PushRecord[]>;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function createPushService(deps: { database: Database; fcm: FcmSender; clock: Clock }): PushService {
  const { database, fcm, clock } = deps;

  async function markDead(result: TokenResult) {
    if (result.outcome !== 'dead') return;
    await database.query('INSERT INTO dead_push_tokens (token, code, marked_at) VALUES ($1, $2, $3) ON CONFLICT (token) DO NOTHING', [
      result.token,
      result.code ?? 'UNREGISTERED',
      clock.now().toISOString(),
    ]);
  }

  async function tokensFor(clientId: number) {
    const records = await database.query<TokenRecord>(
      `SELECT firebase_token_new, firebase_token_current, platform, is_ipad FROM debug_records
       WHERE client_id = $1 ORDER BY sent_at DESC NULLS LAST, id DESC LIMIT ${RECORDS_READ}`,
      [clientId],
    );
    const candidates = records.flatMap((r) => [r.firebase_token_new, r.firebase_token_current]).filter((t): t is string => !!t);
    const dead = candidates.length
      ? await database.query<{ token: string }>('SELECT token FROM dead_push_tokens WHERE token = ANY($1::text[])', [candidates.map((t) => t.trim())])
      : [];
    return deviceTokens(records, new Set(dead.map((row) => row.token)));
  }

  async function sendToToken(token: string, message: PushMessage, signal?: AbortSignal) {
    const result = await fcm.send(token, message, signal);
    await markDead(result);
    return result;
  }

  function outcomeOf(row: { id: number; status: string; reason: string | null; results: unknown }): PushOutcome {
    const results = (Array.isArray(row.results) ? row.results : []) as TokenResult[];
    const reason = row.status === 'sending' ? 'This push is still being sent' : (row.reason ?? undefined);
    return { updated: row.status === 'sent', ...(row.status === 'sent' ? {} : { reason }), push_id: Number(row.id), results };
  }

  return {
    mode: fcm.mode,
    tokensFor,
    sendToToken,

    async sendToClient(push) {
      const sentBy = push.sentBy ?? 'automated';
      const key = push.idempotencyKey ? `${push.clientId}:${push.idempotencyKey}` : null;
      const started = clock.now().toISOString();
      // The row exists before anything is sent: a crash mid-way leaves 'sending', never a silent push.
      const [row] = await database.query<{ id: number }>(
        `INSERT INTO pushes (client_id, sent_by, staff_user_id, source, title, body, data, status, idempotency_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'sending', $8, $9)
         ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
         RETURNING id`,
        [
          push.clientId,
          sentBy === 'automated' ? 'automated' : sentBy.email,
          sentBy === 'automated' ? null : sentBy.staffUserId,
          push.source ?? (sentBy === 'automated' ? 'automated' : 'console'),
          push.title,
          push.body,
          push.data ? JSON.stringify(push.data) : null,
          key,
          started,
        ],
      );
      if (!row) {
        const [existing] = await database.query<{ id: number; status: string; reason: string | null; results: unknown }>(
          'SELECT id, status, reason, results FROM pushes WHERE idempotency_key = $1',
          [key],
        );
        return outcomeOf(existing!);
      }
      const pushId = Number(row.id);
      const { tokens, reason } = await tokensFor(push.clientId);
      let results: TokenResult[] = [];
      let status: 'sent' | 'failed' | 'no_token' = 'no_token';
      let why: string | null = reason;
      if (tokens.length > 0) {
        const message: PushMessage = { title: push.title, body: push.body, data: push.data };
        results = await Promise.all(tokens.map((token) => sendToToken(token, message, push.signal)));
        const sent = results.filter((r) => r.outcome === 'sent').length;
        status = sent > 0 ? 'sent' : 'failed';
        why =
          sent > 0
            ? null
            : results.every((r) => r.outcome === 'dead')
              ? `FCM reported the client's device token${tokens.length > 1 ? 's' : ''} as no longer registered (the app was removed or signed out)`
              : `FCM did not deliver to the client's device${tokens.length > 1 ? 's' : ''}: ${results.find((r) => r.outcome === 'failed')?.error ?? 'unknown error'}`;
      }
      await database.query('UPDATE pushes SET status = $2, reason = $3, results = $4, finished_at = $5 WHERE id = $1', [
        pushId,
        status,
        why,
        JSON.stringify(results),
        clock.now().toISOString(),
      ]);
      return outcomeOf({ id: pushId, status, reason: why, results });
    },

    async recent(clientId, limit = 10) {
      const rows = await database.query<Omit<PushRecord, 'created_at'> & { created_at: Date | string }>(
        `SELECT id, sent_by, source, title, body, status, reason, results, created_at FROM pushes
         WHERE client_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
        [clientId, limit],
      );
      return rows.map((r) => ({ ...r, id: Number(r.id), results: (Array.isArray(r.results) ? r.results : []) as TokenResult[], created_at: iso(r.created_at)! }));
    },
  };
}
