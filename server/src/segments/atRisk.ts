import { EXACT_TOTAL_CAP } from '@contract/clientRules';
import { atRiskFilter, type AtRiskClient, type AtRiskPage } from '@contract/segments';
import type { Database, Queryable } from '../db/client';
import { CLIENT_COLUMNS } from '../clients/listQueries';
import { isoOrNull, toClient, type ClientRow } from '../clients/rows';
import { snoozedAt } from '../clients/filterQueries';
import { reachOf } from './reachability';

/** client_activity.value_rank's parts (migration 0059): a paid level, the level, a running contract. */
const PAID_BIT = 2 ** 34;
const CONTRACT_BIT = 1;
/** The expression client_activity's rank and window indexes are built on (migration 0059). */
const LAST_ACTIVE = 'greatest(a.last_class_at, a.last_stream_at)';
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
  const [state] = await database.query<{ ranked_at: unknown; unranked: boolean }>(
    `SELECT (SELECT ranked_at FROM client_activity_ranking) AS ranked_at,
            EXISTS (SELECT 1 FROM client_activity WHERE value_rank IS NULL) AS unranked`,
  );
  const rankedAt = state?.ranked_at ? new Date(state.ranked_at as string).getTime() : NaN;
  if (!state?.unranked && Math.abs(now.getTime() - rankedAt) < RANK_FRESH_MS) return 0;
  const [row] = await database.query<{ ranked: number }>(`SELECT client_activity_rank($1::timestamptz) AS ranked`, [now.toISOString()]);
  return Number(row?.ranked ?? 0);
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
    ? await database.query<ClientRow & { last_contacted_at: unknown }>(
        `SELECT ${CLIENT_COLUMNS},
           greatest((SELECT max(coalesce(p.finished_at, p.created_at)) FROM pushes p WHERE p.client_id = c.id AND p.status = 'sent'),
                    (SELECT max(k.created_at) FROM client_contacts k WHERE k.client_id = c.id AND k.kind <> 'snoozed')) AS last_contacted_at
         FROM clients c WHERE c.id = ANY($1::bigint[])`,
        [picked.map((row) => row.client_id)],
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

type Picked = { client_id: string | number; value_rank: string | number; last_active_at: unknown };

/**
 * One page of the at-risk order, rank by rank from the most valuable: a rank the offset passes
 * whole is only counted (index-only, up to what is left of the offset), so a page reads about
 * offset + perPage index entries in all, whatever the number of ranks.
 */
async function pickPage(database: Queryable, window: { from: string; to: string; now: string }, offset: number, perPage: number): Promise<Picked[]> {
  // A snoozed client is off the list until the snooze ends.
  const inWindow = `a.value_rank = $1 AND ${LAST_ACTIVE} > $2::timestamptz AND ${LAST_ACTIVE} <= $3::timestamptz AND NOT ${snoozedAt('a.client_id', '$4::timestamptz')}`;
  // The ranks present, highest first: one index probe each (a loose index scan).
  const ranks = await database.query<{ r: string | number }>(
    `WITH RECURSIVE ranks(r) AS (
       (SELECT value_rank FROM client_activity WHERE value_rank IS NOT NULL ORDER BY value_rank DESC LIMIT 1)
       UNION ALL
       SELECT (SELECT a.value_rank FROM client_activity a WHERE a.value_rank < ranks.r ORDER BY a.value_rank DESC LIMIT 1)
       FROM ranks WHERE ranks.r IS NOT NULL
     ) SELECT r FROM ranks WHERE r IS NOT NULL`,
  );
  const picked: Picked[] = [];
  let skip = offset;
  for (const { r } of ranks) {
    if (picked.length === perPage) break;
    const params = [r, window.from, window.to, window.now];
    if (skip > 0) {
      const [row] = await database.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM client_activity a WHERE ${inWindow} LIMIT ${skip + 1}) x`,
        params,
      );
      const inRank = Number(row!.n);
      if (inRank <= skip) {
        skip -= inRank;
        continue;
      }
    }
    picked.push(
      ...(await database.query<Picked>(
        `SELECT a.client_id, a.value_rank, ${LAST_ACTIVE} AS last_active_at FROM client_activity a
         WHERE ${inWindow} ORDER BY ${LAST_ACTIVE} DESC, a.client_id DESC LIMIT ${perPage - picked.length} OFFSET ${skip}`,
        params,
      )),
    );
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
  window: { from: string; to: string; now: string },
  page: { offset: number; rows: number; full: boolean },
): Promise<{ total: number; estimate: boolean }> {
  const seen = page.offset + page.rows;
  if (!page.full && (page.rows > 0 || page.offset === 0)) return { total: seen, estimate: false };
  const inWindow = `${LAST_ACTIVE} > '${window.from}'::timestamptz AND ${LAST_ACTIVE} <= '${window.to}'::timestamptz`;
  // Literal timestamps (ISO strings from Date, nothing else) so the planner reads the index's statistics for them.
  const [plan] = await database.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM client_activity a WHERE ${inWindow}`);
  const raw = plan!['QUERY PLAN'];
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[];
  const estimated = Math.round(parsed[0]!.Plan['Plan Rows']);
  if (estimated >= EXACT_TOTAL_CAP) return { total: Math.max(estimated, seen + 1), estimate: true };
  const [row] = await database.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM client_activity a WHERE ${inWindow} AND NOT ${snoozedAt('a.client_id', `'${window.now}'::timestamptz`)}
       LIMIT ${EXACT_TOTAL_CAP + 1}) x`,
  );
  const counted = Number(row!.n);
  if (counted <= EXACT_TOTAL_CAP) return { total: counted, estimate: false };
  return { total: Math.max(EXACT_TOTAL_CAP + 1, estimated, seen + 1), estimate: true };
}
