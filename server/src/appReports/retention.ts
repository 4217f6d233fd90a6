import type { Database, Queryable } from '../db/client';
import { deviceOf, usableTokens, type TokenRecord } from '../push/tokens';
import { CLIENT_HISTORY_MAX, HOLDING_MAX_AGE_MS, HOLDING_MAX_PER_ADDRESS, HOLDING_MAX_PER_EMAIL, HOLDING_MAX_ROWS } from './bounds';
import { mayUseForPush, slotHolders, type PlacedRecord } from './deviceSlots';

// Any constant works: it keeps these locks apart from other advisory locks.
const REPORTS_LOCK = 72_406_017;
const HOLDING_AREA = 0;

/** Serialises the decisions and trims about one client (or the holding area) until the transaction ends. */
export async function lockReportsOf(tx: Queryable, clientId: number | null) {
  await tx.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [REPORTS_LOCK, clientId === null ? HOLDING_AREA : clientId % 2_147_483_647]);
}

async function usedRecords(tx: Queryable, clientId: number): Promise<PlacedRecord[]> {
  const rows = await tx.query<Omit<PlacedRecord, 'created_at'> & { created_at: Date | string }>(
    `SELECT id, platform, is_ipad, firebase_token_new, firebase_token_current, created_at FROM debug_records
     WHERE client_id = $1 AND used_for_push ORDER BY created_at DESC, id DESC LIMIT ${CLIENT_HISTORY_MAX}`,
    [clientId],
  );
  return rows.map((row) => ({ ...row, id: Number(row.id), created_at: new Date(row.created_at) }));
}

/** Whether pushes may go to a new report of this client (deviceSlots.ts says when). */
export async function decideUseForPush(tx: Queryable, clientId: number, report: TokenRecord & { verified: boolean }, now: Date): Promise<boolean> {
  const holders = slotHolders(await usedRecords(tx, clientId));
  const holder = holders.get(deviceOf(report));
  const held = holder ? usableTokens(holder) : [];
  const dead = held.length ? await tx.query<{ token: string }>('SELECT token FROM dead_push_tokens WHERE token = ANY($1::text[])', [held]) : [];
  return mayUseForPush(report, holders, new Set(dead.map((row) => row.token)), now);
}

/** Keeps a client's newest CLIENT_HISTORY_MAX reports, counting the ones holding a device slot first, whatever their age. */
export async function trimClientHistory(tx: Queryable, clientId: number) {
  const holders = [...slotHolders(await usedRecords(tx, clientId)).values()].map((record) => record.id);
  await tx.query(
    `DELETE FROM debug_records
     WHERE client_id = $1 AND NOT (id = ANY($2::bigint[]))
       AND id NOT IN (SELECT id FROM debug_records WHERE client_id = $1 AND NOT (id = ANY($2::bigint[]))
                      ORDER BY created_at DESC, id DESC LIMIT $3)`,
    [clientId, holders, Math.max(0, CLIENT_HISTORY_MAX - holders.length)],
  );
}

/**
 * Reports for clients not imported yet wait to be attached by the next Mindbody import. Anyone
 * with the app key can make them, so they are bounded by age, per e-mail, per address and in all,
 * the oldest dropped first.
 */
export async function trimHoldingArea(tx: Queryable, report: { email: string | null; mbClientId: string | null; receivedFrom: string; now: Date }) {
  // "Keep the newest n" is a range below the n-th newest id, so each part reads only its own
  // index range; one statement, because on PGlite each statement costs more than its work.
  const held = (where: string) => `SELECT id FROM debug_records WHERE client_id IS NULL AND ${where}`;
  const beyondNewest = (where: string, n: number) => `${held(where)} AND id < (${held(where)} ORDER BY id DESC OFFSET ${n - 1} LIMIT 1)`;
  const sameClient = report.email ? 'lower(email) = lower($3)' : 'email IS NULL AND mb_client_id = $3';
  await tx.query(
    `DELETE FROM debug_records WHERE id = ANY(ARRAY(
       ${held('created_at < $1')}
       UNION ALL ${beyondNewest(sameClient, HOLDING_MAX_PER_EMAIL)}
       UNION ALL ${beyondNewest('received_from = $2', HOLDING_MAX_PER_ADDRESS)}
       UNION ALL ${beyondNewest('TRUE', HOLDING_MAX_ROWS)}))`,
    [new Date(report.now.getTime() - HOLDING_MAX_AGE_MS).toISOString(), report.receivedFrom, report.email ?? report.mbClientId],
  );
}

/**
 * Held reports just attached to their imported client are decided as if they had arrived now, oldest
 * first: they did not prove anything more while waiting than a report arriving now would.
 */
export async function settleAttachedReports(database: Database, attached: readonly { id: number; client_id: number }[], now: Date) {
  const byClient = new Map<number, number[]>();
  for (const row of attached) byClient.set(Number(row.client_id), [...(byClient.get(Number(row.client_id)) ?? []), Number(row.id)]);
  for (const [clientId, ids] of byClient) {
    await database.transaction(async (tx) => {
      await lockReportsOf(tx, clientId);
      const reports = await tx.query<TokenRecord & { id: number; identity_verified: boolean }>(
        `UPDATE debug_records SET used_for_push = false WHERE id = ANY($1::bigint[])
         RETURNING id, platform, is_ipad, firebase_token_new, firebase_token_current, identity_verified, created_at`,
        [ids],
      );
      const oldestFirst = [...reports].sort((a, b) => Number(a.id) - Number(b.id));
      for (const report of oldestFirst) {
        if (await decideUseForPush(tx, clientId, { ...report, verified: report.identity_verified }, now)) {
          await tx.query('UPDATE debug_records SET used_for_push = true WHERE id = $1', [report.id]);
        }
      }
      await trimClientHistory(tx, clientId);
    });
  }
}
