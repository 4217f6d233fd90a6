import type { Database, Queryable } from '../db/client';
import { deviceOf, usableTokens, type TokenRecord } from '../push/tokens';
import { CLIENT_HISTORY_MAX, HOLDING_MAX_AGE_MS, HOLDING_MAX_PER_ADDRESS, HOLDING_MAX_PER_EMAIL, HOLDING_MAX_ROWS } from './bounds';
import { mayUseForPush, slotHolders, type PlacedRecord } from './deviceSlots';
import { deadTokens, deleteOlderReports, lockReports, setUsedForPush, trimHeldReports, unsetUsedForPush, usedReports } from './queries';

const HOLDING_AREA = 0;

/** Serialises the decisions and trims about one client (or the holding area) until the transaction ends. */
export async function lockReportsOf(tx: Queryable, clientId: number | null) {
  await lockReports(tx, clientId === null ? HOLDING_AREA : clientId % 2_147_483_647);
}

async function usedRecords(tx: Queryable, clientId: number): Promise<PlacedRecord[]> {
  return usedReports(tx, clientId, CLIENT_HISTORY_MAX);
}

/** Whether pushes may go to a new report of this client (deviceSlots.ts says when). */
export async function decideUseForPush(tx: Queryable, clientId: number, report: TokenRecord & { verified: boolean }, now: Date): Promise<boolean> {
  const holders = slotHolders(await usedRecords(tx, clientId));
  const holder = holders.get(deviceOf(report));
  const held = holder ? usableTokens(holder) : [];
  const dead = held.length ? await deadTokens(tx, held) : [];
  return mayUseForPush(report, holders, new Set(dead), now);
}

/** Keeps a client's newest CLIENT_HISTORY_MAX reports, counting the ones holding a device slot first, whatever their age. */
export async function trimClientHistory(tx: Queryable, clientId: number) {
  const holders = [...slotHolders(await usedRecords(tx, clientId)).values()].map((record) => record.id);
  await deleteOlderReports(tx, clientId, holders, Math.max(0, CLIENT_HISTORY_MAX - holders.length));
}

/**
 * Reports for clients not imported yet wait to be attached by the next Mindbody import. Anyone
 * with the app key can make them, so they are bounded by age, per e-mail, per address and in all,
 * the oldest dropped first.
 */
export async function trimHoldingArea(tx: Queryable, report: { email: string | null; mbClientId: string | null; receivedFrom: string; now: Date }) {
  await trimHeldReports(
    tx,
    { email: report.email, mbClientId: report.mbClientId, receivedFrom: report.receivedFrom, olderThan: new Date(report.now.getTime() - HOLDING_MAX_AGE_MS) },
    { perClient: HOLDING_MAX_PER_EMAIL, perAddress: HOLDING_MAX_PER_ADDRESS, inAll: HOLDING_MAX_ROWS },
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
      const reports = await unsetUsedForPush(tx, ids);
      const oldestFirst = [...reports].sort((a, b) => a.id - b.id);
      for (const report of oldestFirst) {
        if (await decideUseForPush(tx, clientId, { ...report, verified: report.identity_verified }, now)) {
          await setUsedForPush(tx, report.id);
        }
      }
      await trimClientHistory(tx, clientId);
    });
  }
}
