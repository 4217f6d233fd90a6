import { EXACT_TOTAL_CAP } from '@contract/clientRules';
import { atRiskFilter, type AtRiskClient, type AtRiskPage } from '@contract/segments';
import type { Database, Queryable } from '../db/client';
import { isoOrNull, toClient } from '../clients/rows';
import {
  activityRanks,
  atRiskClients,
  countInRank,
  countWindow,
  estimateWindow,
  pickInRank,
  rankActivity,
  rankingState,
  type AtRiskWindow,
  type Picked,
} from './atRiskQueries';
import { reachOf } from './reachability';

/** client_activity.value_rank's parts (migration 0059): a paid level, the level, a running contract. */
const PAID_BIT = 2 ** 34;
const CONTRACT_BIT = 1;
/** A rank older than this is brought up to date before a read (contract dates are whole days). */
const RANK_FRESH_MS = 60_000;

/** The at-risk window as timestamps: last active after `from`, and not after `to`. */
export function atRiskWindow(window: { activeDays: number; quietDays: number }, now: Date): { from: string; to: string } {
  const day = 24 * 60 * 60 * 1000;
  return {
    from: new Date(now.getTime() - (window.activeDays + window.quietDays) * day).toISOString(),
    to: new Date(now.getTime() - window.quietDays * day).toISOString(),
  };
}

/**
 * Brings client_activity's ranks up to `now` (migration 0059's client_activity_rank): the rows a write
 * cleared, and the clients whose contract began or ended since the last ranking. Skipped while nothing
 * is cleared and the last ranking is under a minute from `now`, so a busy list does not write per read.
 */
export async function rankClientActivity(database: Queryable, now: Date): Promise<number> {
  const state = await rankingState(database);
  const rankedAt = state?.ranked_at ? state.ranked_at.getTime() : NaN;
  if (!state?.unranked && Math.abs(now.getTime() - rankedAt) < RANK_FRESH_MS) return 0;
  return rankActivity(database, now);
}

/**
 * The at-risk list (docs/features.md#at-risk): clients with a signed-in class or a stream in the
 * `activeDays` before the last `quietDays`, and none since; the client filter says it
 * (`atRiskFilter`), so a broadcast or bulk action reaches exactly these clients. Most valuable
 * first: a paid level, a higher level, a running Mindbody contract, then the most recently active.
 * Each rank's window is one range of client_activity's (rank, last active) index, so a page reads
 * about as many index entries per rank as it shows, at any size.
 */
export async function atRiskPage(
  database: Database,
  window: { activeDays: number; quietDays: number },
  paging: { page: number; perPage: number },
  now: Date,
): Promise<AtRiskPage> {
  await rankClientActivity(database, now);
  const { from, to } = atRiskWindow(window, now);
  const offset = (paging.page - 1) * paging.perPage;
  const nowIso = now.toISOString();
  const picked = await pickPage(database, { from, to, now: nowIso }, offset, paging.perPage);
  // Contacted: a push that reached a device, or a call, text or message staff logged; an attempt that failed is not contact.
  const rows = picked.length
    ? await atRiskClients(
        database,
        picked.map((row) => row.client_id),
      )
    : [];
  const reach = await reachOf(
    database,
    rows.map((row) => Number(row._id)),
  );
  const byId = new Map(rows.map((row) => [Number(row._id), row]));
  // A client deleted since its activity was read drops out of the page (its activity is cleared by the cascade).
  const clients: AtRiskClient[] = picked.flatMap((row) => {
    const client = byId.get(Number(row.client_id));
    if (!client) return [];
    const rank = Number(row.value_rank);
    return [
      {
        ...toClient(client),
        paid: rank >= PAID_BIT,
        active_contract: rank % 2 === CONTRACT_BIT,
        last_active_at: isoOrNull(row.last_active_at),
        last_contacted_at: isoOrNull(client.last_contacted_at),
        reachable: reach.get(Number(client._id)) === null,
        unreachable_reason: reach.get(Number(client._id)) ?? null,
      },
    ];
  });
  const { total, estimate } = await countAtRisk(database, { from, to, now: nowIso }, { offset, rows: picked.length, full: picked.length === paging.perPage });
  return {
    clients,
    total,
    total_is_estimate: estimate,
    page: paging.page,
    perPage: paging.perPage,
    active_days: window.activeDays,
    quiet_days: window.quietDays,
    filter: atRiskFilter(window.activeDays, window.quietDays),
  };
}

/**
 * One page of the at-risk order, rank by rank from the most valuable: a rank the offset passes
 * whole is only counted (index-only, up to what is left of the offset), so a page reads about
 * offset + perPage index entries in all, whatever the number of ranks.
 */
async function pickPage(database: Queryable, window: AtRiskWindow, offset: number, perPage: number): Promise<Picked[]> {
  const picked: Picked[] = [];
  let skip = offset;
  for (const r of await activityRanks(database)) {
    if (picked.length === perPage) break;
    if (skip > 0) {
      const inRank = await countInRank(database, r, window, skip + 1);
      if (inRank <= skip) {
        skip -= inRank;
        continue;
      }
    }
    picked.push(...(await pickInRank(database, r, window, perPage - picked.length, skip)));
    skip = 0;
  }
  return picked;
}

/**
 * How many clients are at risk, as the client lists count (clients/listTotal.ts): a page that is not
 * full tells it; else the planner's estimate of the window decides: a large one is kept (flagged), a
 * smaller one is counted on the window index, never beyond EXACT_TOTAL_CAP + 1 entries.
 */
async function countAtRisk(
  database: Database,
  window: AtRiskWindow,
  page: { offset: number; rows: number; full: boolean },
): Promise<{ total: number; estimate: boolean }> {
  const seen = page.offset + page.rows;
  if (!page.full && (page.rows > 0 || page.offset === 0)) return { total: seen, estimate: false };
  const estimated = await estimateWindow(database, window);
  if (estimated >= EXACT_TOTAL_CAP) return { total: Math.max(estimated, seen + 1), estimate: true };
  const counted = await countWindow(database, window, EXACT_TOTAL_CAP + 1);
  if (counted <= EXACT_TOTAL_CAP) return { total: counted, estimate: false };
  return { total: Math.max(EXACT_TOTAL_CAP + 1, estimated, seen + 1), estimate: true };
}
