import type { UnreachableReason } from '@contract/segments';
import type { Queryable } from '../db/client';
import { deviceTokens, usableTokens, type TokenRecord } from '../push/tokens';

/** A client's device records read per client, as the push itself reads them (push/service.ts). */
const RECORDS_READ = 50;

/**
 * Whether a push can reach each client now, by the rule the push itself follows (push/tokens.ts
 * `deviceTokens`: a usable token on a record the app may be pushed through, not declared dead by
 * FCM); when not, why: no device report at all, reports without a token, or only dead tokens.
 */
export async function reachOf(database: Queryable, clientIds: readonly number[]): Promise<Map<number, UnreachableReason | null>> {
  const reach = new Map<number, UnreachableReason | null>();
  if (clientIds.length === 0) return reach;
  const records = await database.query<TokenRecord & { client_id: number | string }>(
    `SELECT client_id, firebase_token_new, firebase_token_current, platform, is_ipad FROM (
       SELECT d.*, row_number() OVER (PARTITION BY d.client_id ORDER BY d.created_at DESC, d.id DESC) AS n
       FROM debug_records d WHERE d.client_id = ANY($1::bigint[]) AND d.used_for_push) r
     WHERE n <= ${RECORDS_READ} ORDER BY client_id, n`,
    [clientIds],
  );
  const byClient = new Map<number, TokenRecord[]>();
  for (const record of records) {
    const id = Number(record.client_id);
    byClient.set(id, [...(byClient.get(id) ?? []), record]);
  }
  const candidates = [...new Set(records.flatMap((record) => usableTokens(record)))];
  const dead = candidates.length
    ? new Set(
        (await database.query<{ token: string }>('SELECT token FROM dead_push_tokens WHERE token = ANY($1::text[])', [candidates])).map((row) => row.token),
      )
    : new Set<string>();
  for (const id of clientIds) {
    const own = byClient.get(id) ?? [];
    if (deviceTokens(own, dead).tokens.length > 0) reach.set(id, null);
    else if (own.length === 0) reach.set(id, 'no_app');
    else if (own.some((record) => usableTokens(record).length > 0)) reach.set(id, 'tokens_dead');
    else reach.set(id, 'no_token');
  }
  return reach;
}
