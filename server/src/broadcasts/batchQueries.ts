import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable } from '../db/client';
import type { TokenResult } from '../integrations/fcm';
import { deviceTokens } from '../push/tokens';

/**
 * The statements of one batch of a broadcast (send.ts): each works on a whole batch at once, so a
 * batch of hundreds of recipients costs a handful of statements, none of them on a shared row.
 */

/** Debug records read per client, as the push service reads them (push/service.ts). */
const RECORDS_READ = 50;

const ClaimedRow = z.object({
  client_id: z.number(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  opted_out: z.boolean(),
  attempts: z.number(),
  /** Set on a retry: the push whose deferred tokens are tried again. */
  push_id: z.number().nullable(),
  /** The version of the text it gets (0 = the first), null for a broadcast with one text. */
  variant: z.number().nullable(),
});
export type Claimed = z.infer<typeof ClaimedRow>;

const ClientIdRow = z.object({ client_id: z.number() });
const TokenRecordRow = z.object({
  client_id: z.number(),
  firebase_token_new: z.string().nullable(),
  firebase_token_current: z.string().nullable(),
  platform: z.string().nullable(),
  is_ipad: z.boolean().nullable(),
});
const TokenRow = z.object({ token: z.string() });
const InsertedPushRow = z.object({ id: z.number(), client_id: z.number(), status: z.string() });
/** `results` is jsonb: a list of token results, read as a list or nothing. */
const PushResultsRow = z.object({ id: z.number(), client_id: z.number(), status: z.string(), results: z.unknown() });
const IdRow = z.object({ id: z.number() });
const DeferredRow = z.object({ id: z.number(), results: z.unknown() });
const OpenWorkRow = z.object({ open: z.number(), retrying: z.number(), waiting: z.number(), next_retry: timestamp.nullable() });

const tokenResults = (results: unknown) => (Array.isArray(results) ? results : []) as TokenResult[];

/** Claims up to `limit` due recipients (pending, or retrying whose time has come) as 'sending'. */
export async function claimBatch(tx: Queryable, broadcastId: number, now: Date, limit: number): Promise<Claimed[]> {
  return tx.rows(
    ClaimedRow,
    `WITH due AS (
       SELECT client_id FROM broadcast_recipients
       WHERE broadcast_id = $1 AND (status = 'pending' OR (status = 'retrying' AND retry_at <= $2))
       ORDER BY client_id LIMIT $3 FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE broadcast_recipients r SET status = 'sending', attempts = r.attempts + 1
       FROM due WHERE r.broadcast_id = $1 AND r.client_id = due.client_id
       RETURNING r.client_id, r.attempts, r.push_id, r.variant
     )
     SELECT k.client_id, k.attempts, k.push_id, k.variant, c.first_name, c.last_name, c.automated_messages_opt_out AS opted_out
     FROM claimed k JOIN clients c ON c.id = k.client_id ORDER BY k.client_id`,
    [broadcastId, now.toISOString(), limit],
  );
}

/** Takes a daily-cap slot for each client (automation/dailyCapQueries.ts's rule, for a batch); answers who got one. */
export async function takeCapSlots(tx: Queryable, clientIds: number[], day: string, cap: number): Promise<Set<number>> {
  if (clientIds.length === 0) return new Set();
  const taken = await tx.rows(
    ClientIdRow,
    `INSERT INTO automated_push_days (client_id, local_day, sent) SELECT id, $2, 1 FROM unnest($1::bigint[]) AS t(id)
     ON CONFLICT (client_id, local_day) DO UPDATE SET sent = automated_push_days.sent + 1 WHERE automated_push_days.sent < $3
     RETURNING client_id`,
    [clientIds, day, cap],
  );
  return new Set(taken.map((row) => row.client_id));
}

/** Gives the slots of `day` back (their pushes did not go out). */
export async function giveBackCapSlots(tx: Queryable, clientIds: number[], day: string): Promise<void> {
  if (clientIds.length === 0) return;
  await tx.execute('UPDATE automated_push_days SET sent = sent - 1 WHERE local_day = $2 AND client_id = ANY($1::bigint[]) AND sent > 0', [clientIds, day]);
}

/** Each client's device tokens, by the push service's rule (push/tokens.ts): two statements for the batch. */
export async function batchTokens(tx: Queryable, clientIds: number[]): Promise<Map<number, { tokens: string[]; reason: string | null }>> {
  const records = clientIds.length
    ? await tx.rows(
        TokenRecordRow,
        `SELECT c.id AS client_id, d.firebase_token_new, d.firebase_token_current, d.platform, d.is_ipad
         FROM unnest($1::bigint[]) WITH ORDINALITY AS c(id, o)
         CROSS JOIN LATERAL (
           SELECT firebase_token_new, firebase_token_current, platform, is_ipad, row_number() OVER (ORDER BY created_at DESC, id DESC) AS n
           FROM debug_records WHERE client_id = c.id AND used_for_push ORDER BY created_at DESC, id DESC LIMIT ${RECORDS_READ}
         ) d
         ORDER BY c.o, d.n`,
        [clientIds],
      )
    : [];
  const candidates = [
    ...new Set(
      records
        .flatMap((r) => [r.firebase_token_new, r.firebase_token_current])
        .filter((t): t is string => !!t)
        .map((t) => t.trim()),
    ),
  ];
  const dead = candidates.length
    ? new Set((await tx.rows(TokenRow, 'SELECT token FROM dead_push_tokens WHERE token = ANY($1::text[])', [candidates])).map((row) => row.token))
    : new Set<string>();
  const byClient = new Map<number, z.infer<typeof TokenRecordRow>[]>(clientIds.map((id) => [id, []]));
  for (const record of records) byClient.get(record.client_id)?.push(record);
  return new Map([...byClient].map(([id, list]) => [id, deviceTokens(list, dead)]));
}

export interface NewPush {
  client_id: number;
  title: string;
  body: string;
  status: 'no_token';
  reason: string | null;
  idempotency_key: string;
}

/**
 * The push records of clients without a device token (the client page's pushes), in one statement.
 * A client whose key is taken already gets the existing record back, `existing`.
 */
export async function insertPushes(
  tx: Queryable,
  pushes: NewPush[],
  common: { sent_by: string; staff_user_id: number | null; source: string; data: Record<string, string>; at: Date },
): Promise<Map<number, { id: number; existing: boolean; status: string; results: TokenResult[] }>> {
  const found = new Map<number, { id: number; existing: boolean; status: string; results: TokenResult[] }>();
  if (pushes.length === 0) return found;
  const inserted = await tx.rows(
    InsertedPushRow,
    `INSERT INTO pushes (client_id, sent_by, staff_user_id, source, title, body, data, status, reason, idempotency_key, created_at, finished_at)
     SELECT t.client_id, $2, $3, $4, t.title, t.body, $5::jsonb, t.status, t.reason, t.idempotency_key, $6, CASE WHEN t.status = 'no_token' THEN $6::timestamptz END
     FROM jsonb_to_recordset($1::jsonb) AS t(client_id bigint, title text, body text, status text, reason text, idempotency_key text)
     ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
     RETURNING id, client_id, status`,
    [JSON.stringify(pushes), common.sent_by, common.staff_user_id, common.source, JSON.stringify(common.data), common.at.toISOString()],
  );
  for (const row of inserted) found.set(row.client_id, { id: row.id, existing: false, status: row.status, results: [] });
  const missing = pushes.filter((push) => !found.has(push.client_id)).map((push) => push.idempotency_key);
  if (missing.length > 0) {
    const existing = await tx.rows(PushResultsRow, 'SELECT id, client_id, status, results FROM pushes WHERE idempotency_key = ANY($1::text[])', [missing]);
    for (const row of existing) found.set(row.client_id, { id: row.id, existing: true, status: row.status, results: tokenResults(row.results) });
  }
  return found;
}

/** Push records written already under these idempotency keys (a batch claimed again after a stop), by client. */
export async function existingPushes(tx: Queryable, keys: string[]): Promise<Map<number, { id: number; status: string; results: TokenResult[] }>> {
  if (keys.length === 0) return new Map();
  const rows = await tx.rows(PushResultsRow, 'SELECT id, client_id, status, results FROM pushes WHERE idempotency_key = ANY($1::text[])', [keys]);
  return new Map(rows.map((row) => [row.client_id, { id: row.id, status: row.status, results: tokenResults(row.results) }]));
}

/**
 * Ids for the push records of a batch, taken before anything is sent: each message carries its
 * push's id (the app reports the open with it), and the record is written once, with its outcome.
 */
export async function newPushIds(tx: Queryable, n: number): Promise<number[]> {
  if (n === 0) return [];
  const rows = await tx.rows(IdRow, "SELECT nextval(pg_get_serial_sequence('pushes', 'id')) AS id FROM generate_series(1, $1::int)", [n]);
  return rows.map((row) => row.id);
}

/** The deferred tokens of pushes being retried. */
export async function deferredTokens(tx: Queryable, pushIds: number[]): Promise<Map<number, TokenResult[]>> {
  if (pushIds.length === 0) return new Map();
  const rows = await tx.rows(DeferredRow, 'SELECT id, results FROM pushes WHERE id = ANY($1::bigint[])', [pushIds]);
  return new Map(rows.map((row) => [row.id, tokenResults(row.results)]));
}

export interface RecipientResult {
  client_id: number;
  status: 'sent' | 'failed' | 'skipped' | 'retrying' | 'pending';
  skip_reason?: string | null;
  failure?: string | null;
  push_id?: number | null;
  retry_at?: string | null;
  /** Back to pending: this claim did not count as an attempt. */
  refund?: boolean;
}

/** Writes the recipients' outcomes, in one statement; only rows this batch claimed ('sending') change. */
export async function recordRecipients(tx: Queryable, broadcastId: number, results: RecipientResult[]): Promise<void> {
  if (results.length === 0) return;
  await tx.execute(
    `UPDATE broadcast_recipients r SET status = t.status, skip_reason = t.skip_reason, failure = t.failure,
            push_id = COALESCE(t.push_id, r.push_id), retry_at = t.retry_at, attempts = r.attempts - CASE WHEN t.refund THEN 1 ELSE 0 END
     FROM jsonb_to_recordset($2::jsonb) AS t(client_id bigint, status text, skip_reason text, failure text, push_id bigint, retry_at timestamptz, refund boolean)
     WHERE r.broadcast_id = $1 AND r.client_id = t.client_id AND r.status = 'sending'`,
    [broadcastId, JSON.stringify(results.map((result) => ({ refund: false, ...result })))],
  );
}

export interface PushUpdate {
  id: number;
  status: string;
  reason: string | null;
  results: TokenResult[];
}

/** A push record with its outcome: written once (or over the record of an earlier attempt, by its idempotency key). */
export interface PushOutcome extends PushUpdate {
  client_id: number;
  title: string;
  body: string;
  idempotency_key: string;
}

/** Writes the pushes with their outcomes and marks the tokens FCM declared dead: two statements. */
export async function recordPushes(
  tx: Queryable,
  pushes: PushOutcome[],
  common: { sent_by: string; staff_user_id: number | null; source: string; data: Record<string, string> },
  at: Date,
): Promise<void> {
  if (pushes.length === 0) return;
  await tx.execute(
    `INSERT INTO pushes (id, client_id, sent_by, staff_user_id, source, title, body, data, status, reason, results, idempotency_key, created_at, finished_at)
     SELECT t.id, t.client_id, $2, $3, $4, t.title, t.body, $5::jsonb, t.status, t.reason, t.results, t.idempotency_key, $6, $6
     FROM jsonb_to_recordset($1::jsonb) AS t(id bigint, client_id bigint, title text, body text, status text, reason text, results jsonb, idempotency_key text)
     ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL
     DO UPDATE SET status = EXCLUDED.status, reason = EXCLUDED.reason, results = EXCLUDED.results, finished_at = EXCLUDED.finished_at`,
    [JSON.stringify(pushes), common.sent_by, common.staff_user_id, common.source, JSON.stringify(common.data), at.toISOString()],
  );
  const dead = pushes.flatMap((push) => push.results.filter((r) => r.outcome === 'dead').map((r) => ({ token: r.token, code: r.code ?? 'UNREGISTERED' })));
  if (dead.length > 0)
    await tx.execute(
      `INSERT INTO dead_push_tokens (token, code, marked_at) SELECT t.token, t.code, $2 FROM jsonb_to_recordset($1::jsonb) AS t(token text, code text)
       ON CONFLICT (token) DO NOTHING`,
      [JSON.stringify(dead), at.toISOString()],
    );
}

/** What is left of a broadcast: in flight or pending, waiting to retry (and the earliest retry), waiting for the winner. */
export async function openWork(db: Queryable, broadcastId: number): Promise<{ open: number; retrying: number; waiting: number; nextRetry: Date | null }> {
  const [row] = await db.rows(
    OpenWorkRow,
    `SELECT count(*) FILTER (WHERE status IN ('pending', 'sending'))::int AS open, count(*) FILTER (WHERE status = 'retrying')::int AS retrying,
            count(*) FILTER (WHERE status = 'waiting')::int AS waiting, min(retry_at) FILTER (WHERE status = 'retrying') AS next_retry
     FROM broadcast_recipients WHERE broadcast_id = $1 AND status IN ('pending', 'sending', 'retrying', 'waiting')`,
    [broadcastId],
  );
  return { open: row?.open ?? 0, retrying: row?.retrying ?? 0, waiting: row?.waiting ?? 0, nextRetry: row?.next_retry ?? null };
}
