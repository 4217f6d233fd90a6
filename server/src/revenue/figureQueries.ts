import { z } from 'zod';
import type { Interval } from '@contract/revenueRules';
import type { Database } from '../db/client';

const SumsRow = z.object({ sums: z.unknown() });
const RunningRow = z.object({ kind: z.string(), reason: z.string(), n: z.number(), amount: z.string() });
const CohortCellRow = z.object({ kind: z.string(), cohort: z.string(), month: z.string(), n: z.number() });

/** One kept total: its period (null: before the range), kind, reason, count and amount. */
export type Sum = [string | null, string, string, number, number];

/**
 * The kept totals of `kinds` by period over [first, end), and before `first` when `before`.
 * One row whatever the range: a period per day over years is thousands of (period, kind) sums,
 * and one JSON value crosses from the database far faster than as many rows.
 * Whole months before the month of the range's start (or of today) come from the month rows, the
 * rest from the day rows; a month chart's whole months too. A month row also holds the changes
 * known ahead (expiries later this month), so the running month is always read by day.
 */
export async function keptSums(database: Database, interval: Interval, first: string, end: string, kinds: string[], before: boolean): Promise<Sum[]> {
  const inRange =
    interval === 'day'
      ? `SELECT to_char(day, 'YYYY-MM-DD'), kind, reason, n, amount FROM revenue_days WHERE day >= $1::date AND day < $2::date AND kind = ANY($3::text[])`
      : interval === 'week'
        ? `SELECT to_char(date_trunc('week', day::timestamp), 'YYYY-MM-DD'), kind, reason, sum(n), sum(amount)
           FROM revenue_days WHERE day >= $1::date AND day < $2::date AND kind = ANY($3::text[]) GROUP BY 1, 2, 3`
        : `SELECT to_char(month, 'YYYY-MM-DD'), kind, reason, n, amount
           FROM revenue_months WHERE month >= $1::date AND month < date_trunc('month', $2::date::timestamp)::date AND kind = ANY($3::text[])
           UNION ALL
           SELECT to_char(date_trunc('month', day::timestamp), 'YYYY-MM-DD'), kind, reason, sum(n), sum(amount)
           FROM revenue_days WHERE day >= greatest($1::date, date_trunc('month', $2::date::timestamp)::date) AND day < $2::date AND kind = ANY($3::text[])
           GROUP BY 1, 2, 3`;
  const [{ sums }] = (await database.rows(
    SumsRow,
    `WITH bound AS (SELECT least($1::date, $2::date) AS b, date_trunc('month', least($1::date, $2::date)::timestamp)::date AS m)
     SELECT coalesce(json_agg(json_build_array(period, kind, reason, n, amount)), '[]') AS sums FROM (
       SELECT NULL AS period, kind, reason, sum(n) AS n, sum(amount) AS amount FROM (
         SELECT kind, reason, n, amount FROM revenue_months, bound WHERE $4::boolean AND month < bound.m AND kind = ANY($3::text[])
         UNION ALL
         SELECT kind, reason, n, amount FROM revenue_days, bound WHERE $4::boolean AND day >= bound.m AND day < bound.b AND kind = ANY($3::text[])
       ) earlier GROUP BY kind, reason
       UNION ALL ${inRange}
     ) t`,
    [first, end, kinds, before],
  )) as [{ sums: unknown }];
  return (typeof sums === 'string' ? JSON.parse(sums) : sums) as Sum[];
}

/** The changes of `kinds` in [from, to), totalled by kind and reason (the running day, which the day rows do not hold yet). */
export async function changeTotals(database: Database, from: string, to: string, kinds: string[]) {
  return database.rows(
    RunningRow,
    `SELECT kind, reason, sum(n) AS n, sum(amount)::text AS amount FROM revenue_changes
       WHERE kind = ANY($3::text[]) AND at >= $1::timestamptz AND at < $2::timestamptz GROUP BY kind, reason`,
    [from, to, kinds],
  );
}

/** The kept cohort cells of `kind` (and each cohort's size) for cohorts from..to, months up to `lastMonth`. */
export async function cohortCells(database: Database, kind: 'paying' | 'active', from: string, to: string, lastMonth: string) {
  return database.rows(
    CohortCellRow,
    `SELECT kind, to_char(cohort, 'YYYY-MM-DD') AS cohort, to_char(month, 'YYYY-MM-DD') AS month, n FROM revenue_cohort_cells
     WHERE (kind = $1 OR (kind = 'paying' AND month = cohort)) AND cohort >= $2::date AND cohort <= $3::date AND month <= $4::date AND n <> 0`,
    [kind, from, to, lastMonth],
  );
}
