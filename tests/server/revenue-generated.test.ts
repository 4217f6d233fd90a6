import { beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { revenueCatHarness, START } from '../support/revenuecatHarness';
import { signIn } from '../support/server';
import { asDeliveredOutOfOrder, generateHistories, type Truth, type TruthPeriod } from '../support/revenueGenerated';

/**
 * The Revenue area's figures for seeded random histories, sent through the webhook shuffled and
 * partly twice, against figures worked out here from what happened (the generator's record of each
 * period), by a deliberately plain model of docs/revenue.md's definitions that shares no code with
 * the server: MRR, its movement, active subscriptions and trials, trial conversion, churn, revenue,
 * cancellation reasons, paying and activity cohorts, and the clients behind a figure.
 */

const DAY = 86_400_000;
const FROM = Date.parse('2025-01-01T00:00:00Z');
const NOW = START.getTime();
// Seeds 2, 3, 16 and 2026 each hit a defect this test found; REVENUE_SEEDS=1,2,… runs others.
const SEEDS = process.env.REVENUE_SEEDS ? process.env.REVENUE_SEEDS.split(',').map(Number) : [2, 3, 16, 2026];

// ---- the model ------------------------------------------------------------------------------

const iso = (at: number) => new Date(at).toISOString().slice(0, 10);
const monthStarts = (from: number, to: number) => {
  const out: number[] = [];
  const d = new Date(from);
  for (let m = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1); m <= to; m = Date.UTC(new Date(m).getUTCFullYear(), new Date(m).getUTCMonth() + 1, 1))
    out.push(m);
  return out;
};
const monthOf = (at: number) => Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth(), 1);
const nextMonth = (m: number) => Date.UTC(new Date(m).getUTCFullYear(), new Date(m).getUTCMonth() + 1, 1);

/** A month's worth of a price: a week × 52 ÷ 12, a month as is, a year ÷ 12. */
const monthly = (p: TruthPeriod, price: number) => (p.product.unit === 'week' ? (price * 52) / 12 : p.product.unit === 'year' ? price / 12 : price);

function model(truth: Truth) {
  const counted = truth.periods.filter((p) => p.refundedAt === null && p.end > p.start);
  const paid = counted.filter((p) => p.kind === 'paid');
  const paidOf = new Map<string, TruthPeriod[]>();
  for (const p of paid) paidOf.set(p.client, [...(paidOf.get(p.client) ?? []), p]);
  const running = (p: TruthPeriod, at: number) => p.start <= at && at < p.end;

  /** A client's MRR at an instant, in cents (each client's to the cent). */
  const clientMrr = (client: string, at: number) =>
    Math.round((paidOf.get(client) ?? []).filter((p) => running(p, at)).reduce((sum, p) => sum + monthly(p, p.usd), 0) * 100);
  const mrr = (at: number) => truth.clients.reduce((sum, c) => sum + clientMrr(c, at), 0);
  const mrrIn = (currency: string, at: number) =>
    truth.clients.reduce(
      (sum, c) =>
        sum + Math.round((paidOf.get(c) ?? []).filter((p) => p.currency === currency && running(p, at)).reduce((s, p) => s + monthly(p, p.local), 0) * 100),
      0,
    );

  /** Each subscription's paid (or trial) time as spans: periods that follow each other are one span. */
  const spans = (kind: 'paid' | 'trial') => {
    const bySubscription = new Map<string, TruthPeriod[]>();
    for (const p of counted.filter((q) => q.kind === kind)) bySubscription.set(p.subscription, [...(bySubscription.get(p.subscription) ?? []), p]);
    const out: { client: string; start: number; end: number }[] = [];
    for (const list of bySubscription.values()) {
      let current: { client: string; start: number; end: number } | null = null;
      for (const p of [...list].sort((a, b) => a.start - b.start)) {
        if (current && p.start <= current.end) current.end = Math.max(current.end, p.end);
        else {
          current = { client: p.client, start: p.start, end: p.end };
          out.push(current);
        }
      }
    }
    return out;
  };
  const paidSpans = spans('paid');
  const trialSpans = spans('trial');
  const activeAt = (list: { start: number; end: number }[], at: number) => list.filter((s) => s.start <= at && at < s.end).length;

  /** Every step of every client's MRR: when, what kind, by how much (cents). */
  const steps: { client: string; at: number; kind: string; cents: number }[] = [];
  for (const client of truth.clients) {
    const times = [...new Set((paidOf.get(client) ?? []).flatMap((p) => [p.start, p.end]))].sort((a, b) => a - b);
    let before = 0;
    let everPaid = false;
    for (const at of times) {
      const now = clientMrr(client, at);
      if (now !== before) {
        const kind = before === 0 ? (everPaid ? 'reactivated' : 'new') : now === 0 ? 'churned' : now > before ? 'expansion' : 'contraction';
        steps.push({ client, at, kind, cents: Math.abs(now - before) });
      }
      if (now > 0) everPaid = true;
      before = now;
    }
  }

  const sumOf = (list: { cents: number }[]) => list.reduce((s, x) => s + x.cents, 0) / 100;
  const inRange = (at: number, a: number, b: number) => a <= at && at < b && at < NOW;

  return {
    summary() {
      const today = Date.parse(`${iso(NOW)}T00:00:00Z`);
      const windowStart = today - 27 * DAY;
      const revenue = this.revenue(windowStart, NOW + 1);
      const eur = mrrIn('EUR', NOW) / 100;
      return {
        mrr: { usd: mrr(NOW) / 100, by_currency: eur === 0 ? [] : [{ currency: 'EUR', amount: eur }] },
        active_subscriptions: activeAt(paidSpans, NOW),
        active_trials: activeAt(trialSpans, NOW),
        revenue_28d: { gross_usd: revenue.gross_usd, refunds_usd: revenue.refunds_usd, net_usd: revenue.net_usd },
        as_of: START.toISOString(),
      };
    },
    movement(a: number, b: number) {
      const end = Math.min(b, NOW);
      const of = (kind: string) => sumOf(steps.filter((s) => s.kind === kind && inRange(s.at, a, b)));
      const row = {
        start: iso(a),
        starting_usd: mrr(a) / 100,
        new_usd: of('new'),
        expansion_usd: of('expansion'),
        contraction_usd: of('contraction'),
        churned_usd: of('churned'),
        reactivated_usd: of('reactivated'),
        net_usd: (mrr(end) - mrr(a)) / 100,
        ending_usd: mrr(end) / 100,
      };
      return row;
    },
    mrrAt(a: number, b: number) {
      const end = Math.min(b, NOW);
      return { start: iso(a), mrr_usd: mrr(end) / 100, active_subscriptions: activeAt(paidSpans, end), active_trials: activeAt(trialSpans, end) };
    },
    conversion(a: number, b: number) {
      const trials = truth.periods.filter((p) => p.kind === 'trial' && inRange(p.start, a, b));
      const converted = trials.filter((t) => paid.some((p) => p.subscription === t.subscription && p.start >= t.start)).length;
      return { start: iso(a), trials_started: trials.length, converted, rate: trials.length === 0 ? null : converted / trials.length };
    },
    churn(a: number, b: number) {
      const active = activeAt(paidSpans, a);
      const ended = paidSpans.filter((s) => inRange(s.end, a, b)).length;
      return { start: iso(a), active_at_start: active, ended, rate: active === 0 ? null : ended / active };
    },
    revenue(a: number, b: number) {
      const gross = truth.periods.filter((p) => p.kind === 'paid' && inRange(p.start, a, b)).reduce((s, p) => s + Math.round(p.usd * 100), 0);
      const refunds = truth.periods.filter((p) => p.refundedAt !== null && inRange(p.refundedAt, a, b)).reduce((s, p) => s + Math.round(p.usd * 100), 0);
      return { start: iso(a), gross_usd: gross / 100, refunds_usd: refunds / 100, net_usd: (gross - refunds) / 100 };
    },
    cancellations(a: number, b: number) {
      const list = truth.cancellations.filter((c) => inRange(c.at, a, b));
      const reasons: Record<string, number> = {};
      for (const c of list) reasons[c.reason] = (reasons[c.reason] ?? 0) + 1;
      return { start: iso(a), total: list.length, reasons };
    },
    /** Clients by the month of their first paid period; per later month, who paid (or streamed) in it. */
    cohorts(kind: 'paying' | 'active', from: number, to: number) {
      const cohortOf = new Map<string, number>();
      for (const [client, list] of paidOf) cohortOf.set(client, monthOf(Math.min(...list.map((p) => p.start))));
      const thisMonth = monthOf(NOW);
      return monthStarts(from, to).map((cohort) => {
        const members = [...cohortOf].filter(([, m]) => m === cohort).map(([c]) => c);
        const retained = monthStarts(cohort, thisMonth).map((month) => {
          const end = nextMonth(month);
          return members.filter((c) =>
            kind === 'paying'
              ? (paidOf.get(c) ?? []).some((p) => p.start < end && p.end > month)
              : truth.views.some((v) => v.client === c && v.at >= month && v.at < end),
          ).length;
        });
        return { start: iso(cohort), size: members.length, retained };
      });
    },
    /** The clients with a step of `kind` in [a, b). */
    clientsWith(kind: string, a: number, b: number) {
      return [...new Set(steps.filter((s) => s.kind === kind && inRange(s.at, a, b)).map((s) => s.client))].sort();
    },
    payingAt(at: number) {
      return truth.clients.filter((c) => clientMrr(c, at) > 0).sort();
    },
  };
}

// ---- the test -------------------------------------------------------------------------------

describe.each(testDatabases())('Revenue figures of generated histories on $name', ({ open }) => {
  const h = revenueCatHarness(open);
  let cookie = '';

  const json = async (url: string) => {
    const response = await h.app.inject({ method: 'GET', url, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  beforeEach(async () => {
    await h.database.execScript(
      'DELETE FROM revenue_changes; DELETE FROM revenue_days; DELETE FROM revenue_months; DELETE FROM revenue_periods; DELETE FROM revenue_clients; DELETE FROM revenue_client_months; DELETE FROM revenue_cohort_cells; DELETE FROM client_active_months; DELETE FROM revenue_backfill; DELETE FROM video_views;',
    );
    cookie = await signIn(h.app);
  });

  it.each(SEEDS)(
    'seed %i: every chart equals the figures worked out from what happened',
    async (seed) => {
      const { truth, events } = generateHistories(seed, 24, FROM, NOW);
      const ids = new Map<string, number>();
      for (const name of truth.clients) ids.set(name, await h.addClient({ email: `${name}@example.test`, rc: `rc-${name}` }));
      const nameOf = new Map([...ids].map(([name, id]) => [id, name]));
      const [video] = await h.database.query<{ id: number }>("INSERT INTO videos (vimeo_video_id, title, duration) VALUES ($1, 'Flow', 600) RETURNING id", [
        `gen-${seed}`,
      ]);
      const view = (v: { client: string; at: number }) =>
        h.database.query('INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3)', [
          ids.get(v.client),
          video!.id,
          new Date(v.at).toISOString(),
        ]);
      // Half the streams before the purchases are known, half after (kept by the trigger).
      const half = Math.floor(truth.views.length / 2);
      for (const v of truth.views.slice(0, half)) await view(v);
      for (const body of asDeliveredOutOfOrder(seed, events)) {
        expect((await h.post(body)).statusCode).toBe(200);
        await h.app.jobs.runDue();
      }
      for (const v of truth.views.slice(half)) await view(v);

      const expected = model(truth);
      const months = monthStarts(Date.parse('2024-12-01T00:00:00Z'), NOW);
      const range = 'from=2024-12-01&to=2026-11-30';

      expect(await json('/api/admin/v1/revenue/summary')).toEqual(expected.summary());

      const movement = (await json(`/api/admin/v1/revenue/mrr-movement?interval=month&${range}`)).periods;
      expect(movement).toEqual(months.map((m) => expected.movement(m, nextMonth(m))));
      for (const p of movement) {
        expect(Math.round((p.starting_usd + p.new_usd + p.expansion_usd - p.contraction_usd - p.churned_usd + p.reactivated_usd) * 100)).toBe(
          Math.round(p.ending_usd * 100),
        );
      }
      expect((await json(`/api/admin/v1/revenue/mrr?interval=month&${range}`)).periods).toEqual(months.map((m) => expected.mrrAt(m, nextMonth(m))));
      expect((await json(`/api/admin/v1/revenue/conversion?interval=month&${range}`)).periods).toEqual(months.map((m) => expected.conversion(m, nextMonth(m))));
      expect((await json(`/api/admin/v1/revenue/churn?interval=month&${range}`)).periods).toEqual(months.map((m) => expected.churn(m, nextMonth(m))));
      expect((await json(`/api/admin/v1/revenue/revenue?interval=month&${range}`)).periods).toEqual(months.map((m) => expected.revenue(m, nextMonth(m))));
      expect((await json(`/api/admin/v1/revenue/cancellations?interval=month&${range}`)).periods).toEqual(
        months.map((m) => expected.cancellations(m, nextMonth(m))),
      );

      // Days: the last 40, each its own period.
      const today = Date.parse(`${iso(NOW)}T00:00:00Z`);
      const days = Array.from({ length: 40 }, (_, i) => today - (39 - i) * DAY);
      expect((await json(`/api/admin/v1/revenue/mrr-movement?interval=day&from=${iso(days[0]!)}&to=${iso(today)}`)).periods).toEqual(
        days.map((d) => expected.movement(d, d + DAY)),
      );
      expect((await json(`/api/admin/v1/revenue/revenue?interval=day&from=${iso(days[0]!)}&to=${iso(today)}`)).periods).toEqual(
        days.map((d) => expected.revenue(d, d + DAY)),
      );

      // Weeks (ISO, from Monday): the last 20, the running one included.
      const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY;
      const weeks = Array.from({ length: 20 }, (_, i) => monday - (19 - i) * 7 * DAY);
      expect((await json(`/api/admin/v1/revenue/mrr-movement?interval=week&from=${iso(weeks[0]!)}&to=${iso(today)}`)).periods).toEqual(
        weeks.map((w) => expected.movement(w, w + 7 * DAY)),
      );
      expect((await json(`/api/admin/v1/revenue/churn?interval=week&from=${iso(weeks[0]!)}&to=${iso(today)}`)).periods).toEqual(
        weeks.map((w) => expected.churn(w, w + 7 * DAY)),
      );

      const cohortRange = 'from=2025-01-01&to=2026-11-01';
      const cohortFrom = Date.parse('2025-01-01T00:00:00Z');
      expect((await json(`/api/admin/v1/revenue/cohorts?kind=paying&interval=month&${cohortRange}`)).cohorts).toEqual(
        expected.cohorts('paying', cohortFrom, NOW),
      );
      expect((await json(`/api/admin/v1/revenue/cohorts?kind=active&interval=month&${cohortRange}`)).cohorts).toEqual(
        expected.cohorts('active', cohortFrom, NOW),
      );

      // The clients behind a figure are exactly those the model counts.
      const clientsOf = async (query: string) => {
        const page = await json(`/api/client/v1/clients/1?perPage=100&${query}`);
        return (page.clients as { _id: number }[]).map((c) => nameOf.get(c._id)!).sort();
      };
      for (const m of months.slice(-8)) {
        const q = `revenue_from=${iso(m)}&revenue_to=${iso(nextMonth(m))}`;
        expect(await clientsOf(`revenue_figure=churned&${q}`)).toEqual(expected.clientsWith('churned', m, nextMonth(m)));
        expect(await clientsOf(`revenue_figure=new&${q}`)).toEqual(expected.clientsWith('new', m, nextMonth(m)));
      }
      expect(await clientsOf(`revenue_figure=paying&revenue_from=${START.toISOString()}`)).toEqual(expected.payingAt(NOW));
    },
    600_000,
  );
});
