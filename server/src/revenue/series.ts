// Charts from the kept daily totals (docs/revenue.md): pure functions over sums per kind.
import type { ChurnResponse, ConversionResponse, MovementPeriod, MrrResponse, RevenueResponse, CancellationResponse } from '@contract/revenue';

export interface Sums {
  n: number;
  /** Cents, so sums stay exact. */
  cents: number;
}
/** Sums per `kind` or `kind|reason`. */
export type Bucket = Map<string, Sums>;

export const bucketKey = (kind: string, reason: string) => (reason ? `${kind}|${reason}` : kind);

export function addTo(bucket: Bucket, kind: string, reason: string, n: number, cents: number) {
  for (const k of reason ? [kind, bucketKey(kind, reason)] : [kind]) {
    const s = bucket.get(k) ?? { n: 0, cents: 0 };
    s.n += n;
    s.cents += cents;
    bucket.set(k, s);
  }
}

const n = (b: Bucket | undefined, kind: string) => b?.get(kind)?.n ?? 0;
const c = (b: Bucket | undefined, kind: string) => b?.get(kind)?.cents ?? 0;
const usd = (cents: number) => Math.round(cents) / 100;

/** MRR moved by a bucket's movements, in cents. */
export const mrrCents = (b: Bucket | undefined) => c(b, 'new') + c(b, 'expansion') + c(b, 'reactivated') - c(b, 'contraction') - c(b, 'churned');
export const subscriptionsIn = (b: Bucket | undefined) => n(b, 'subscription_started') - n(b, 'subscription_ended');
export const trialsIn = (b: Bucket | undefined) => n(b, 'trial_began') - n(b, 'trial_ended');

export interface Buckets {
  /** Everything before the first period. */
  before: Bucket;
  starts: string[];
  periods: Map<string, Bucket>;
}

export function movementSeries({ before, starts, periods }: Buckets): MovementPeriod[] {
  let level = mrrCents(before);
  return starts.map((start) => {
    const b = periods.get(start);
    const net = mrrCents(b);
    const row = {
      start,
      starting_usd: usd(level),
      new_usd: usd(c(b, 'new')),
      expansion_usd: usd(c(b, 'expansion')),
      contraction_usd: usd(c(b, 'contraction')),
      churned_usd: usd(c(b, 'churned')),
      reactivated_usd: usd(c(b, 'reactivated')),
      net_usd: usd(net),
      ending_usd: usd(level + net),
    };
    level += net;
    return row;
  });
}

export function mrrSeries({ before, starts, periods }: Buckets): MrrResponse['periods'] {
  let mrr = mrrCents(before);
  let subs = subscriptionsIn(before);
  let trials = trialsIn(before);
  return starts.map((start) => {
    const b = periods.get(start);
    mrr += mrrCents(b);
    subs += subscriptionsIn(b);
    trials += trialsIn(b);
    return { start, mrr_usd: usd(mrr), active_subscriptions: subs, active_trials: trials };
  });
}

export function conversionSeries({ starts, periods }: Buckets): ConversionResponse['periods'] {
  return starts.map((start) => {
    const b = periods.get(start);
    const started = n(b, 'trial_started');
    const converted = n(b, 'trial_converted');
    return { start, trials_started: started, converted, rate: started === 0 ? null : converted / started };
  });
}

export function churnSeries({ before, starts, periods }: Buckets): ChurnResponse['periods'] {
  let active = subscriptionsIn(before);
  return starts.map((start) => {
    const b = periods.get(start);
    const ended = n(b, 'subscription_ended');
    const row = { start, active_at_start: active, ended, rate: active === 0 ? null : ended / active };
    active += subscriptionsIn(b);
    return row;
  });
}

export function revenueSeries({ starts, periods }: Buckets): RevenueResponse['periods'] {
  return starts.map((start) => {
    const b = periods.get(start);
    return { start, gross_usd: usd(c(b, 'gross')), refunds_usd: usd(c(b, 'refund')), net_usd: usd(c(b, 'gross') - c(b, 'refund')) };
  });
}

export function cancellationSeries({ starts, periods }: Buckets): CancellationResponse['periods'] {
  return starts.map((start) => {
    const b = periods.get(start);
    const reasons: Record<string, number> = {};
    for (const [k, s] of b ?? []) if (k.startsWith('cancellation|') && s.n !== 0) reasons[k.slice('cancellation|'.length)] = s.n;
    return { start, total: n(b, 'cancellation'), reasons };
  });
}

/** MRR in each currency other than USD, from a bucket of everything up to now. */
export function currencies(all: Bucket): { currency: string; amount: number }[] {
  return [...all]
    .filter(([k, s]) => k.startsWith('mrr_local|') && k !== 'mrr_local|USD' && Math.round(s.cents) !== 0)
    .map(([k, s]) => ({ currency: k.slice('mrr_local|'.length), amount: usd(s.cents) }))
    .sort((a, b) => (a.currency < b.currency ? -1 : 1));
}
