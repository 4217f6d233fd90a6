import type { CohortResponse, RevenueSummary } from '@contract/revenue';
import { MAX_REVENUE_PERIODS } from '@contract/revenue';
import { nextPeriod, periodStart, periodStarts, periodsBack, type Interval } from '@contract/revenueRules';
import type { Database } from '../db/client';
import { badRequest } from '../lib/errors';
import { addTo, currencies, mrrCents, subscriptionsIn, trialsIn, type Bucket, type Buckets } from './series';

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

type Row = { period: string | null; kind: string; reason: string; n: string | number; amount: string };

/**
 * The daily totals of [.., end) by period, plus the running day's changes up to `asOf` when the
 * range reaches it (the day rows hold whole days; a change later today has not happened yet).
 */
async function readBuckets(database: Database, interval: Interval, from: string, to: string, asOf: Date): Promise<Buckets> {
  const today = dayOf(asOf);
  const last = to < today ? to : today;
  const starts = periodStarts(from, last, interval);
  if (starts.length > MAX_REVENUE_PERIODS) {
    throw badRequest(`That range has ${starts.length} ${interval}s; ask for at most ${MAX_REVENUE_PERIODS} (a longer interval or a shorter range)`);
  }
  const first = starts[0] ?? periodStart(from, interval);
  const end = addDays(last, 1) < today ? addDays(last, 1) : today;
  const rows = await database.query<Row>(
    `SELECT CASE WHEN day < $1::date THEN NULL ELSE to_char(date_trunc($3, day::timestamp), 'YYYY-MM-DD') END AS period,
            kind, reason, sum(n) AS n, sum(amount)::text AS amount
     FROM revenue_days WHERE day < $2::date GROUP BY 1, 2, 3`,
    [first, end, interval],
  );
  const before: Bucket = new Map();
  const periods = new Map<string, Bucket>();
  const put = (period: string | null, kind: string, reason: string, n: number, amount: string) => {
    let bucket = before;
    if (period !== null) {
      bucket = periods.get(period) ?? new Map();
      periods.set(period, bucket);
    }
    addTo(bucket, kind, reason, n, Math.round(Number(amount) * 100));
  };
  for (const row of rows) put(row.period, row.kind, row.reason, Number(row.n), row.amount);
  if (last === today) {
    const running = await database.query<Row>(
      `SELECT kind, reason, sum(n) AS n, sum(amount)::text AS amount FROM revenue_changes
       WHERE at >= $1::timestamptz AND at < $2::timestamptz GROUP BY kind, reason`,
      [`${today}T00:00:00Z`, asOf.toISOString()],
    );
    const period = periodStart(today, interval);
    for (const row of running) put(period >= first ? period : null, row.kind, row.reason, Number(row.n), row.amount);
  }
  return { before, starts, periods };
}

/** A chart's range: `to` defaults to today, `from` to 11 periods before it. */
export function chartRange(query: { interval: Interval; from?: string; to?: string }, asOf: Date) {
  const to = query.to ?? dayOf(asOf);
  const from = query.from ?? periodsBack(to, query.interval, 11);
  if (from > to) throw badRequest(`from (${from}) is after to (${to})`);
  return { interval: query.interval, from, to };
}

export async function chartBuckets(database: Database, query: { interval: Interval; from?: string; to?: string }, asOf: Date) {
  const range = chartRange(query, asOf);
  return readBuckets(database, range.interval, range.from, range.to, asOf);
}

/** Everything up to `asOf`, and the last 28 days up to it (today counted as one of them). */
export async function revenueSummary(database: Database, asOf: Date): Promise<RevenueSummary> {
  const today = dayOf(asOf);
  const all = await readBuckets(database, 'day', today, today, asOf);
  const now: Bucket = new Map(all.before);
  for (const [k, s] of all.periods.get(today) ?? []) {
    const t = now.get(k) ?? { n: 0, cents: 0 };
    now.set(k, { n: t.n + s.n, cents: t.cents + s.cents });
  }
  const window = await readBuckets(database, 'day', addDays(today, -27), today, asOf);
  let gross = 0;
  let refunds = 0;
  for (const bucket of window.periods.values()) {
    gross += bucket.get('gross')?.cents ?? 0;
    refunds += bucket.get('refund')?.cents ?? 0;
  }
  return {
    mrr: { usd: Math.round(mrrCents(now)) / 100, by_currency: currencies(now) },
    active_subscriptions: subscriptionsIn(now),
    active_trials: trialsIn(now),
    revenue_28d: { gross_usd: Math.round(gross) / 100, refunds_usd: Math.round(refunds) / 100, net_usd: Math.round(gross - refunds) / 100 },
    as_of: asOf.toISOString(),
  };
}

/** Cohort triangles from the kept cells; a month after `asOf`'s is never shown. */
export async function cohorts(database: Database, query: { kind: 'paying' | 'active'; from?: string; to?: string }, asOf: Date): Promise<CohortResponse> {
  const thisMonth = periodStart(dayOf(asOf), 'month');
  const to = periodStart(query.to ?? thisMonth, 'month');
  const from = periodStart(query.from ?? periodsBack(to, 'month', 11), 'month');
  if (from > to) throw badRequest(`from (${from}) is after to (${to})`);
  const rows = await database.query<{ kind: string; cohort: string; month: string; n: string | number }>(
    `SELECT kind, to_char(cohort, 'YYYY-MM-DD') AS cohort, to_char(month, 'YYYY-MM-DD') AS month, n FROM revenue_cohort_cells
     WHERE (kind = $1 OR (kind = 'paying' AND month = cohort)) AND cohort >= $2::date AND cohort <= $3::date AND month <= $4::date AND n <> 0`,
    [query.kind, from, to, thisMonth],
  );
  const out: CohortResponse['cohorts'] = [];
  for (let start = from; start <= to && start <= thisMonth; start = nextPeriod(start, 'month')) {
    const months = periodStarts(start, thisMonth, 'month');
    const size = rows.filter((r) => r.kind === 'paying' && r.cohort === start && r.month === start).reduce((sum, r) => sum + Number(r.n), 0);
    const retained = months.map((month) =>
      rows.filter((r) => r.kind === query.kind && r.cohort === start && r.month === month).reduce((sum, r) => sum + Number(r.n), 0),
    );
    out.push({ start, size, retained });
  }
  return { cohorts: out, as_of: asOf.toISOString() };
}
