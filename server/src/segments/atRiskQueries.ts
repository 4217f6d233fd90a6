import { z } from 'zod';
import { timestamp } from '../db/rows';
import { CLIENT_COLUMNS, ClientRow } from '../clients/listQueries';
import { snoozedAt } from '../clients/filterQueries';
import type { Database, Queryable } from '../db/client';

/** The at-risk list's statements (atRisk.ts): client_activity's ranks, a page of them, its clients and its count. */

/** The expression client_activity's rank and window indexes are built on (migration 0059). */
const LAST_ACTIVE = 'greatest(a.last_class_at, a.last_stream_at)';

/** Last active after `from`, not after `to`; snoozed as of `now` (ISO timestamps). */
export interface AtRiskWindow {
  from: string;
  to: string;
  now: string;
}

/** A timestamp as the drivers give it; ±infinity arrives as a number, kept as its text (isoOrNull reads it as no date). */
const RankingStateRow = z.object({ ranked_at: timestamp.nullable(), unranked: z.boolean() });
const RankedRow = z.object({ ranked: z.number() });
const RankRow = z.object({ r: z.number() });
const CountRow = z.object({ n: z.number() });
const PickedRow = z.object({ client_id: z.number(), value_rank: z.number(), last_active_at: timestamp.nullable() });
export type Picked = z.infer<typeof PickedRow>;
const AtRiskClientRow = ClientRow.extend({ last_contacted_at: timestamp.nullable() });
const PlanRow = z.object({ 'QUERY PLAN': z.unknown() });

/** When client_activity was last ranked, and whether a row waits for its rank. */
export async function rankingState(database: Queryable): Promise<z.infer<typeof RankingStateRow> | undefined> {
  const [state] = await database.rows(
    RankingStateRow,
    `SELECT (SELECT ranked_at FROM client_activity_ranking) AS ranked_at,
            EXISTS (SELECT 1 FROM client_activity WHERE value_rank IS NULL) AS unranked`,
  );
  return state;
}

/** Ranks client_activity as of `now` (migration 0059's client_activity_rank); answers how many rows it ranked. */
export async function rankActivity(database: Queryable, now: Date): Promise<number> {
  const [row] = await database.rows(RankedRow, `SELECT client_activity_rank($1::timestamptz) AS ranked`, [now.toISOString()]);
  return row?.ranked ?? 0;
}

/** The page's clients, each with when staff last reached them. */
export const atRiskClients = (database: Queryable, clientIds: number[]) =>
  database.rows(
    AtRiskClientRow,
    `SELECT ${CLIENT_COLUMNS},
           greatest((SELECT max(coalesce(p.finished_at, p.created_at)) FROM pushes p WHERE p.client_id = c.id AND p.status = 'sent'),
                    (SELECT max(k.created_at) FROM client_contacts k WHERE k.client_id = c.id AND k.kind <> 'snoozed')) AS last_contacted_at
         FROM clients c WHERE c.id = ANY($1::bigint[])`,
    [clientIds],
  );

// A snoozed client is off the list until the snooze ends.
const IN_WINDOW = `a.value_rank = $1 AND ${LAST_ACTIVE} > $2::timestamptz AND ${LAST_ACTIVE} <= $3::timestamptz AND NOT ${snoozedAt('a.client_id', '$4::timestamptz')}`;

/** The ranks present, highest first: one index probe each (a loose index scan). */
export async function activityRanks(database: Queryable): Promise<number[]> {
  const ranks = await database.rows(
    RankRow,
    `WITH RECURSIVE ranks(r) AS (
       (SELECT value_rank FROM client_activity WHERE value_rank IS NOT NULL ORDER BY value_rank DESC LIMIT 1)
       UNION ALL
       SELECT (SELECT a.value_rank FROM client_activity a WHERE a.value_rank < ranks.r ORDER BY a.value_rank DESC LIMIT 1)
       FROM ranks WHERE ranks.r IS NOT NULL
     ) SELECT r FROM ranks WHERE r IS NOT NULL`,
  );
  return ranks.map((row) => row.r);
}

/** How many of a rank's clients are in the window, counting no further than `limit`. */
export async function countInRank(database: Queryable, rank: number, window: AtRiskWindow, limit: number): Promise<number> {
  const [row] = await database.rows(CountRow, `SELECT count(*)::int AS n FROM (SELECT 1 FROM client_activity a WHERE ${IN_WINDOW} LIMIT ${limit}) x`, [
    rank,
    window.from,
    window.to,
    window.now,
  ]);
  return row!.n;
}

/** A rank's clients in the window, the most recently active first. */
export const pickInRank = (database: Queryable, rank: number, window: AtRiskWindow, limit: number, offset: number) =>
  database.rows(
    PickedRow,
    `SELECT a.client_id, a.value_rank, ${LAST_ACTIVE} AS last_active_at FROM client_activity a
         WHERE ${IN_WINDOW} ORDER BY ${LAST_ACTIVE} DESC, a.client_id DESC LIMIT ${limit} OFFSET ${offset}`,
    [rank, window.from, window.to, window.now],
  );

const literalWindow = (window: AtRiskWindow) => `${LAST_ACTIVE} > '${window.from}'::timestamptz AND ${LAST_ACTIVE} <= '${window.to}'::timestamptz`;

/** The planner's estimate of the window's clients. */
export async function estimateWindow(database: Database, window: AtRiskWindow): Promise<number> {
  // Literal timestamps (ISO strings from Date, nothing else) so the planner reads the index's statistics for them.
  const [plan] = await database.rows(PlanRow, `EXPLAIN (FORMAT JSON) SELECT 1 FROM client_activity a WHERE ${literalWindow(window)}`);
  const raw = plan!['QUERY PLAN'];
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[];
  return Math.round(parsed[0]!.Plan['Plan Rows']);
}

/** The window's clients not snoozed, counting no further than `limit`. */
export async function countWindow(database: Database, window: AtRiskWindow, limit: number): Promise<number> {
  const [row] = await database.rows(
    CountRow,
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM client_activity a WHERE ${literalWindow(window)} AND NOT ${snoozedAt('a.client_id', `'${window.now}'::timestamptz`)}
       LIMIT ${limit}) x`,
  );
  return row!.n;
}
