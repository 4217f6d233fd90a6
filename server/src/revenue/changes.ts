// The kept figures of one client (docs/revenue.md): every change of their MRR, subscriptions and
// trials, their revenue and cancellations, as rows the daily totals add up. Pure functions.
import { cents, type History, type Period } from './history';

export const MOVEMENT_KINDS = ['new', 'expansion', 'contraction', 'churned', 'reactivated'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

export type ChangeKind =
  | MovementKind
  | 'subscription_started'
  | 'subscription_ended'
  | 'trial_began'
  | 'trial_ended'
  | 'trial_started'
  | 'trial_converted'
  | 'gross'
  | 'refund'
  | 'cancellation'
  | 'mrr_local';

export interface Change {
  at: number;
  kind: ChangeKind;
  /** The cancellation's reason, or the currency of an mrr_local change; '' otherwise. */
  reason: string;
  n: number;
  /** USD (a movement's size is positive whichever way it goes); local money for mrr_local. */
  amount: number;
}

const counted = (p: Period) => !p.refunded && p.end > p.start;

/** Each interval [start, end) of the union of the given ones. */
function merged(intervals: { start: number; end: number }[]): { start: number; end: number }[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: { start: number; end: number }[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

/** The client's MRR (USD, to the cent) and per currency over time: the value from each boundary on. */
function mrrSteps(paid: Period[]): { at: number; usd: number; local: Map<string, number> }[] {
  const boundaries = [...new Set(paid.flatMap((p) => [p.start, p.end]).filter(Number.isFinite))].sort((a, b) => a - b);
  return boundaries.map((at) => {
    let usd = 0;
    const local = new Map<string, number>();
    for (const p of paid) {
      if (p.start <= at && at < p.end) {
        usd += p.mrrUsd;
        if (p.currency) local.set(p.currency, (local.get(p.currency) ?? 0) + p.mrrLocal);
      }
    }
    return { at, usd: cents(usd), local };
  });
}

function movementChanges(paid: Period[]): Change[] {
  const out: Change[] = [];
  let before = 0;
  let everPaid = false;
  let localBefore = new Map<string, number>();
  for (const step of mrrSteps(paid)) {
    const delta = cents(step.usd - before);
    if (delta !== 0) {
      let kind: MovementKind;
      if (before === 0) kind = everPaid ? 'reactivated' : 'new';
      else if (step.usd === 0) kind = 'churned';
      else kind = delta > 0 ? 'expansion' : 'contraction';
      out.push({ at: step.at, kind, reason: '', n: 1, amount: Math.abs(delta) });
    }
    for (const currency of new Set([...localBefore.keys(), ...step.local.keys()])) {
      const change = cents(step.local.get(currency) ?? 0) - cents(localBefore.get(currency) ?? 0);
      if (Math.abs(change) >= 0.005) out.push({ at: step.at, kind: 'mrr_local', reason: currency, n: 0, amount: cents(change) });
    }
    if (step.usd > 0) everPaid = true;
    before = step.usd;
    localBefore = step.local;
  }
  return out;
}

/** Starts and ends of the union of each subscription's periods of one kind. */
function spanChanges(periods: Period[], started: ChangeKind, ended: ChangeKind): Change[] {
  const bySubscription = new Map<string, Period[]>();
  for (const p of periods) bySubscription.set(p.subscription, [...(bySubscription.get(p.subscription) ?? []), p]);
  const out: Change[] = [];
  for (const list of bySubscription.values()) {
    for (const span of merged(list)) {
      out.push({ at: span.start, kind: started, reason: '', n: 1, amount: 0 });
      if (Number.isFinite(span.end)) out.push({ at: span.end, kind: ended, reason: '', n: 1, amount: 0 });
    }
  }
  return out;
}

/** Every kept change of a client's history. */
export function changesOf(history: History): Change[] {
  const live = history.periods.filter(counted);
  const paid = live.filter((p) => p.kind === 'paid');
  const trials = live.filter((p) => p.kind === 'trial');
  const out: Change[] = [
    ...movementChanges(paid),
    ...spanChanges(paid, 'subscription_started', 'subscription_ended'),
    ...spanChanges(trials, 'trial_began', 'trial_ended'),
  ];
  // Conversion belongs to the trial's start: of the trials started in a period, how many became paid.
  for (const trial of history.periods.filter((p) => p.kind === 'trial')) {
    out.push({ at: trial.start, kind: 'trial_started', reason: '', n: 1, amount: 0 });
    if (paid.some((p) => p.subscription === trial.subscription && p.start >= trial.start)) {
      out.push({ at: trial.start, kind: 'trial_converted', reason: '', n: 1, amount: 0 });
    }
  }
  for (const p of history.periods) {
    if (p.priceUsd <= 0) continue;
    out.push({ at: p.start, kind: 'gross', reason: '', n: 1, amount: cents(p.priceUsd) });
    if (p.refunded) out.push({ at: p.refundedAt!, kind: 'refund', reason: '', n: 1, amount: cents(p.priceUsd) });
  }
  for (const c of history.cancellations) out.push({ at: c.at, kind: 'cancellation', reason: c.reason, n: 1, amount: 0 });
  return out.sort((a, b) => a.at - b.at || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

/** The first day of `at`'s UTC month, as YYYY-MM-DD. */
export const monthOf = (at: number) => new Date(at).toISOString().slice(0, 7) + '-01';

/** Months (first days) that [start, end) touches; an open end stops at `until`. */
export function monthsBetween(start: number, end: number, until: number): string[] {
  const out: string[] = [];
  const last = Math.min(end - 1, until);
  const d = new Date(start);
  let cursor = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  while (cursor <= last) {
    out.push(new Date(cursor).toISOString().slice(0, 10));
    const c = new Date(cursor);
    cursor = Date.UTC(c.getUTCFullYear(), c.getUTCMonth() + 1, 1);
  }
  return out;
}

/** How far ahead paid months of an open-ended period are kept (a cohort cell never shows the future anyway). */
const OPEN_END_MS = 400 * 86_400_000;

/** The paying cohort (month of the first paid period) and every month the client paid in. */
export function payingMonths(history: History): { cohort: string | null; months: string[] } {
  const paid = history.periods.filter((p) => counted(p) && p.kind === 'paid');
  if (paid.length === 0) return { cohort: null, months: [] };
  const first = Math.min(...paid.map((p) => p.start));
  const months = new Set<string>();
  for (const p of paid) for (const m of monthsBetween(p.start, p.end, p.start + OPEN_END_MS)) months.add(m);
  return { cohort: monthOf(first), months: [...months].sort() };
}
