import { PushRecord } from '@contract/clientActions';
import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Database, Queryable } from '../db/client';
import type { TokenResult } from '../integrations/fcm';

/** Pushes and device tokens: the push records, the debug records a push reads its tokens from, and FCM's dead tokens. */

// Debug records read per push: a device that has not reported among these is long gone.
// Only records allowed a device slot count (appReports/deviceSlots.ts), newest received first:
// the sent_at the app claims is not trusted for ordering.
const RECORDS_READ = 50;

/** A push record as stored: `results` is jsonb, read as a list or nothing. */
const PushRow = PushRecord.omit({ results: true, created_at: true }).extend({ results: z.unknown(), created_at: timestamp });
const PushPageRow = PushRow.extend({ total: z.number() });
const CountRow = z.object({ n: z.number() });
const TokenRecordRow = z.object({
  firebase_token_new: z.string().nullable(),
  firebase_token_current: z.string().nullable(),
  platform: z.string().nullable(),
  is_ipad: z.boolean().nullable(),
});
const TokenRow = z.object({ token: z.string() });
const IdRow = z.object({ id: z.number() });
const OutcomeRow = z.object({ id: z.number(), status: z.string(), reason: z.string().nullable(), results: z.unknown() });
const TextRow = z.object({ title: z.string(), body: z.string(), data: z.unknown() });
const ResultsRow = z.object({ results: z.unknown() });

export const tokenResults = (results: unknown) => (Array.isArray(results) ? results : []) as TokenResult[];

/** Recorded pushes, newest first, of one client or all: one page (`range`, inclusive) and the total. */
export async function listPushes(database: Database, clientId: number | null, range: [number, number]): Promise<{ rows: PushRecord[]; total: number }> {
  const [start, end] = range;
  const rows = await database.rows(
    PushPageRow,
    `SELECT id, client_id, sent_by, source, title, body, status, reason, results, created_at, count(*) OVER () AS total
     FROM pushes WHERE ($1::bigint IS NULL OR client_id = $1)
     ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [clientId, end - start + 1, start],
  );
  // A page past the end has no row to carry the total.
  const total =
    rows.length > 0
      ? rows[0]!.total
      : (await database.rows(CountRow, 'SELECT count(*) AS n FROM pushes WHERE ($1::bigint IS NULL OR client_id = $1)', [clientId]))[0]!.n;
  return {
    total,
    rows: rows.map(({ total: _total, ...row }) => ({
      ...row,
      results: Array.isArray(row.results) ? (row.results as PushRecord['results']) : [],
      created_at: row.created_at.toISOString(),
    })),
  };
}

export const markTokenDead = (database: Queryable, token: string, code: string, at: Date) =>
  database.execute('INSERT INTO dead_push_tokens (token, code, marked_at) VALUES ($1, $2, $3) ON CONFLICT (token) DO NOTHING', [token, code, at.toISOString()]);

/** The client's device records a push may go through, newest first. */
export const pushableRecords = (database: Queryable, clientId: number) =>
  database.rows(
    TokenRecordRow,
    `SELECT firebase_token_new, firebase_token_current, platform, is_ipad FROM debug_records
       WHERE client_id = $1 AND used_for_push ORDER BY created_at DESC, id DESC LIMIT ${RECORDS_READ}`,
    [clientId],
  );

/** Which of these tokens FCM declared dead. */
export const deadTokens = (database: Queryable, tokens: string[]) =>
  database.rows(TokenRow, 'SELECT token FROM dead_push_tokens WHERE token = ANY($1::text[])', [tokens]);

export interface SendingPush {
  client_id: number;
  sent_by: string;
  staff_user_id: number | null;
  source: string;
  title: string;
  body: string;
  data: string | null;
  idempotency_key: string | null;
  created_at: string;
}

/** The push's record, 'sending', before anything goes out; undefined when its idempotency key is taken. */
export async function insertSendingPush(database: Queryable, push: SendingPush): Promise<number | undefined> {
  const [row] = await database.rows(
    IdRow,
    `INSERT INTO pushes (client_id, sent_by, staff_user_id, source, title, body, data, status, idempotency_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'sending', $8, $9)
         ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
         RETURNING id`,
    [push.client_id, push.sent_by, push.staff_user_id, push.source, push.title, push.body, push.data, push.idempotency_key, push.created_at],
  );
  return row?.id;
}

export async function pushByKey(database: Queryable, key: string | null): Promise<z.infer<typeof OutcomeRow> | undefined> {
  const [row] = await database.rows(OutcomeRow, 'SELECT id, status, reason, results FROM pushes WHERE idempotency_key = $1', [key]);
  return row;
}

/** A push's outcome: its status, why, and each token's result. */
export const finishPush = (database: Queryable, pushId: number, outcome: { status: string; reason: string | null; results: TokenResult[] }, at: Date) =>
  database.execute('UPDATE pushes SET status = $2, reason = $3, results = $4, finished_at = $5 WHERE id = $1', [
    pushId,
    outcome.status,
    outcome.reason,
    JSON.stringify(outcome.results),
    at.toISOString(),
  ]);

export async function pushText(database: Queryable, pushId: number): Promise<z.infer<typeof TextRow> | undefined> {
  const [row] = await database.rows(TextRow, 'SELECT title, body, data FROM pushes WHERE id = $1', [pushId]);
  return row;
}

/** A push's token results, its row locked until the transaction ends. */
export async function lockPushResults(tx: Queryable, pushId: number): Promise<TokenResult[]> {
  const [row] = await tx.rows(ResultsRow, 'SELECT results FROM pushes WHERE id = $1 FOR UPDATE', [pushId]);
  return tokenResults(row?.results);
}

/** A broadcast's recipient whose push was retrying: what became of it. */
export const settleRetryingRecipient = (tx: Queryable, pushId: number, status: string) =>
  tx.execute("UPDATE broadcast_recipients SET status = $2, failure = $3, retry_at = NULL WHERE push_id = $1 AND status = 'retrying'", [
    pushId,
    status,
    status === 'sent' ? null : 'gave_up',
  ]);

/** The client's pushes, newest first. */
export const recentPushes = (database: Queryable, clientId: number, limit: number) =>
  database.rows(
    PushRow.omit({ client_id: true }),
    `SELECT id, sent_by, source, title, body, status, reason, results, created_at FROM pushes
         WHERE client_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [clientId, limit],
  );
