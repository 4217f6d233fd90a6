import type { CohortResponse, RevenueSummary } from '@contract/revenue';
import { MAX_REVENUE_PERIODS } from '@contract/revenue';
import { nextPeriod, periodStart, periodStarts, periodsBack, type Interval } from '@contract/revenueRules';
import type { Database } from '../db/client';
import { badRequest } from '../lib/errors';
import { changeTotals, cohortCells, keptSums } from './figureQueries';
import { addTo, currencies, mrrCents, subscriptionsIn, trialsIn, type Bucket, type Buckets } from './series';

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The kinds of kept change a chart reads, and whether it needs the level before its first period. */
export interface ChartRead {
  kinds: readonly string[];
  before: boolean;
}
const MOVEMENTS = ['new', 'expansion', 'contraction', 'churned', 'reactivated'];
const SPANS = ['subscription_started', 'subscription_ended'];
const TRIALS = ['trial_began', 'trial_ended'];
export const CHART_READS = {
  mrr: { kinds: [...MOVEMENTS, ...SPANS, ...TRIALS], before: true },
  movement: { kinds: MOVEMENTS, before: true },
  conversion: { kinds: ['trial_started', 'trial_converted'], before: false },
  churn: { kinds: SPANS, before: true },
  revenue: { kinds: ['gross', 'refund'], before: false },
  cancellations: { kinds: ['cancellation'], before: false },
  summary: { kinds: [...MOVEMENTS, ...SPANS, ...TRIALS, 'mrr_local'], before: true },
  window: { kinds: ['gross', 'refund'], before: false },
} satisfies Record<string, ChartRead>;

/**
 * The daily totals of the range by period, the level before it (when the chart needs one), plus
 * the running day's changes up to `asOf` when the range reaches it (the day rows hold whole days;
 * a change later today has not happened yet). Each read is of the kinds the chart shows only: the
 * day rows' primary key serves the range, and the running day is a few ranges of the changes'
 * (kind, at) index, never a scan of every change.
 */
async function readBuckets(database: Database, interval: Interval, from: string, to: string, asOf: Date, read: ChartRead): Promise<Buckets> {
  const today = dayOf(asOf);
  const last = to < today ? to : today;
  const starts = periodStarts(from, last, interval);
  if (starts.length > MAX_REVENUE_PERIODS) {
    throw badRequest(`That range has ${starts.length} ${interval}s; ask for at most ${MAX_REVENUE_PERIODS} (a longer interval or a shorter range)`);
  }
  const first = starts[0] ?? periodStart(from, interval);
  const end = addDays(last, 1) < today ? addDays(last, 1) : today;
  const kinds = [...read.kinds];
  const rows = await keptSums(database, interval, first, end, kinds, read.before);
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
  for (const [at, kind, reason, n, amount] of rows) put(at, kind, reason, Number(n), String(amount));
  if (last === today) {
    const running = await changeTotals(database, `${today}T00:00:00Z`, asOf.toISOString(), kinds);
    const current = periodStart(today, interval);
    for (const row of running) if (current >= first || read.before) put(current >= first ? current : null, row.kind, row.reason, Number(row.n), row.amount);
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

export async function chartBuckets(database: Database, query: { interval: Interval; from?: string; to?: string }, asOf: Date, read: ChartRead) {
  const range = chartRange(query, asOf);
  return readBuckets(database, range.interval, range.from, range.to, asOf, read);
}

/** Everything up to `asOf`, and the last 28 days up to it (today counted as one of them). */
export async function revenueSummary(database: Database, asOf: Date): Promise<RevenueSummary> {
  const today = dayOf(asOf);
  const all = await readBuckets(database, 'day', today, today, asOf, CHART_READS.summary);
  const now: Bucket = new Map(all.before);
  for (const [k, s] of all.periods.get(today) ?? []) {
    const t = now.get(k) ?? { n: 0, cents: 0 };
    now.set(k, { n: t.n + s.n, cents: t.cents + s.cents });
  }
  const window = await readBuckets(database, 'day', addDays(today, -27), today, asOf, CHART_READS.window);
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
  const rows = await cohortCells(database, query.kind, from, to, thisMonth);
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
