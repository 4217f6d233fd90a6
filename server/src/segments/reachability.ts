import type { UnreachableReason } from '@contract/segments';
import type { Queryable } from '../db/client';
import { deadTokens } from '../push/queries';
import { deviceTokens, usableTokens, type TokenRecord } from '../push/tokens';
import { pushRecordsOf } from './queries';

/**
 * Whether a push can reach each client now, by the rule the push itself follows (push/tokens.ts
 * `deviceTokens`: a usable token on a record the app may be pushed through, not declared dead by
 * FCM); when not, why: no device report at all, reports without a token, or only dead tokens.
 */
export async function reachOf(database: Queryable, clientIds: readonly number[]): Promise<Map<number, UnreachableReason | null>> {
  const reach = new Map<number, UnreachableReason | null>();
  if (clientIds.length === 0) return reach;
  const records = await pushRecordsOf(database, clientIds);
  const byClient = new Map<number, TokenRecord[]>();
  for (const record of records) {
    const id = record.client_id;
    byClient.set(id, [...(byClient.get(id) ?? []), record]);
  }
  const candidates = [...new Set(records.flatMap((record) => usableTokens(record)))];
  const dead = candidates.length ? new Set((await deadTokens(database, candidates)).map((row) => row.token)) : new Set<string>();
  for (const id of clientIds) {
    const own = byClient.get(id) ?? [];
    if (deviceTokens(own, dead).tokens.length > 0) reach.set(id, null);
    else if (own.length === 0) reach.set(id, 'no_app');
    else if (own.some((record) => usableTokens(record).length > 0)) reach.set(id, 'tokens_dead');
    else reach.set(id, 'no_token');
  }
  return reach;
}
