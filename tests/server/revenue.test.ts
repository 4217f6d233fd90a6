import { beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { revenueCatHarness } from '../support/revenuecatHarness';
import { rcEvent } from '../support/revenuecatEvents';
import { signIn } from '../support/server';
import { revenueHistory, type Body } from '../support/revenueHistory';
import { runBackfill } from '../../server/src/revenue/backfill';
import {
  asDelivered,
  CANCELLATION_REFUND_SAMPLE,
  EXPIRATION_SAMPLE,
  INITIAL_PURCHASE_SAMPLE,
  RENEWAL_SAMPLE,
  TEMPORARY_ENTITLEMENT_GRANT_SAMPLE,
} from '../support/revenuecatSamples';

/**
 * The Revenue area's figures for a history whose every number is worked out by hand below (USD):
 * a monthly, a yearly paid in EUR and cancelled, a weekly after a trial that converts, a trial
 * that lapses, an upgrade, a downgrade, a refund, a sandbox purchase, a churn and a return, a
 * billing issue with grace, a pause, a transfer and a trial running now. Events are delivered
 * through the real webhook in a shuffled order, some twice.
 */
describe.each(testDatabases())('Revenue figures on $name', ({ open }) => {
  const h = revenueCatHarness(open);
  let cookie = '';
  let ids: Record<string, number> = {};

  const get = async (url: string, who = cookie) => {
    const response = await h.app.inject({ method: 'GET', url, headers: { cookie: who } });
    return response;
  };
  const json = async (url: string) => {
    const response = await get(url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  /** The ids of every client of the all-clients list under a query. */
  const clientsOf = async (query: string) => {
    const page = await json(`/api/client/v1/clients/1?perPage=100&${query}`);
    return (page.clients as { _id: number }[]).map((c) => c._id).sort((a, b) => a - b);
  };
  const idsOf = (...names: string[]) => names.map((n) => ids[n]!).sort((a, b) => a - b);

  // One at a time, as RevenueCat sends them: two purchases of one client processed at the same
  // instant can collide in the dashboard's client_paid_spans trigger, which is not what this tests.
  const deliverAll = async (bodies: Body[]) => {
    for (const body of bodies) {
      expect((await h.post(body)).statusCode).toBe(200);
      await h.app.jobs.runDue();
    }
  };

  beforeEach(async () => {
    await h.database.execScript(
      'DELETE FROM revenue_changes; DELETE FROM revenue_days; DELETE FROM revenue_months; DELETE FROM revenue_periods; DELETE FROM revenue_clients; DELETE FROM revenue_client_months; DELETE FROM revenue_cohort_cells; DELETE FROM client_active_months; DELETE FROM revenue_backfill; DELETE FROM video_views;',
    );
    cookie = await signIn(h.app);
    ids = {};
    for (const name of ['m', 'y', 'tc', 'tl', 'u', 'd', 'r', 's', 'c', 'b', 'p', 'from', 'to', 'tn']) {
      ids[name] = await h.addClient({ email: `${name}@example.test`, rc: `rc-${name}` });
    }
  });

  it('answers the summary, movement, MRR, conversion, churn, revenue and cancellations computed by hand', async () => {
    const { bodies, redelivered } = revenueHistory(rcEvent);
    await deliverAll([...bodies, ...redelivered]);

    // MRR now: m 10 + y 120/12 + tc 5×52/12 = 21.67 + u 240/12 + d 10 + c 10 + to 10 = 91.67
    expect(await json('/api/admin/v1/revenue/summary')).toEqual({
      mrr: { usd: 91.67, by_currency: [{ currency: 'EUR', amount: 9.17 }] }, // y pays 110 EUR a year
      active_subscriptions: 7, // m, y, tc, u, d, c (its second subscription), to
      active_trials: 1, // tn
      // 10-26 .. now: tc 10-29 5 + m 10 + tc 3×5 + d 10 + c 10 + to 10
      revenue_28d: { gross_usd: 60, refunds_usd: 0, net_usd: 60 },
      as_of: '2026-11-22T12:00:00.000Z',
    });

    const movement = await json('/api/admin/v1/revenue/mrr-movement?interval=month&from=2026-08-01&to=2026-11-30');
    expect(movement.periods).toEqual([
      // before August only d's yearly (240/12)
      {
        start: '2026-08-01',
        starting_usd: 20,
        new_usd: 20,
        expansion_usd: 0,
        contraction_usd: 0,
        churned_usd: 0,
        reactivated_usd: 0,
        net_usd: 20,
        ending_usd: 40,
      },
      // y, u, b, p
      {
        start: '2026-09-01',
        starting_usd: 40,
        new_usd: 40,
        expansion_usd: 0,
        contraction_usd: 0,
        churned_usd: 0,
        reactivated_usd: 0,
        net_usd: 40,
        ending_usd: 80,
      },
      // new tc 21.67 + to 10; u's upgrade +10; d's downgrade −10; c, p, b churned
      {
        start: '2026-10-01',
        starting_usd: 80,
        new_usd: 31.67,
        expansion_usd: 10,
        contraction_usd: 10,
        churned_usd: 30,
        reactivated_usd: 0,
        net_usd: 1.67,
        ending_usd: 81.67,
      },
      // c comes back
      {
        start: '2026-11-01',
        starting_usd: 81.67,
        new_usd: 0,
        expansion_usd: 0,
        contraction_usd: 0,
        churned_usd: 0,
        reactivated_usd: 10,
        net_usd: 10,
        ending_usd: 91.67,
      },
    ]);
    for (const p of movement.periods) {
      expect(p.starting_usd + p.new_usd + p.expansion_usd - p.contraction_usd - p.churned_usd + p.reactivated_usd).toBeCloseTo(p.ending_usd, 6);
    }

    const mrr = await json('/api/admin/v1/revenue/mrr?interval=month&from=2026-09-01&to=2026-11-30');
    expect(mrr.periods).toEqual([
      { start: '2026-09-01', mrr_usd: 80, active_subscriptions: 7, active_trials: 0 },
      { start: '2026-10-01', mrr_usd: 81.67, active_subscriptions: 6, active_trials: 0 },
      { start: '2026-11-01', mrr_usd: 91.67, active_subscriptions: 7, active_trials: 1 },
    ]);

    expect((await json('/api/admin/v1/revenue/conversion?interval=month&from=2026-10-01&to=2026-11-30')).periods).toEqual([
      { start: '2026-10-01', trials_started: 2, converted: 1, rate: 0.5 },
      { start: '2026-11-01', trials_started: 1, converted: 0, rate: 0 },
    ]);
    // Active at October's start: d, m, c, y, u, b, p; ended in October: c, p, b.
    expect((await json('/api/admin/v1/revenue/churn?interval=month&from=2026-10-01&to=2026-11-30')).periods).toEqual([
      { start: '2026-10-01', active_at_start: 7, ended: 3, rate: 3 / 7 },
      { start: '2026-11-01', active_at_start: 6, ended: 0, rate: 0 },
    ]);
    expect((await json('/api/admin/v1/revenue/revenue?interval=month&from=2026-08-01&to=2026-11-30')).periods).toEqual([
      { start: '2026-08-01', gross_usd: 20, refunds_usd: 0, net_usd: 20 }, // m, c
      { start: '2026-09-01', gross_usd: 170, refunds_usd: 0, net_usd: 170 }, // m 10, y 120, u 10, b 10, c 10, p 10
      { start: '2026-10-01', gross_usd: 310, refunds_usd: 10, net_usd: 300 }, // m 10, tc 4×5, u 10 + 240, d 10, r 10 (refunded), to 10
      { start: '2026-11-01', gross_usd: 55, refunds_usd: 0, net_usd: 55 }, // m 10, tc 3×5, d 10, c 10, to 10
    ]);
    expect((await json('/api/admin/v1/revenue/cancellations?interval=month&from=2026-10-01&to=2026-10-31')).periods).toEqual([
      { start: '2026-10-01', total: 4, reasons: { UNSUBSCRIBE: 3, CUSTOMER_SUPPORT: 1 } },
    ]);
    // A week and a day interval add up to the month.
    const weeks = (await json('/api/admin/v1/revenue/mrr-movement?interval=week&from=2026-10-01&to=2026-10-31')).periods;
    expect(weeks[0].start).toBe('2026-09-28');
    expect(weeks.reduce((sum: number, w: { churned_usd: number }) => sum + w.churned_usd, 0)).toBe(30);
    const days = (await json('/api/admin/v1/revenue/mrr-movement?interval=day&from=2026-10-20&to=2026-10-20')).periods;
    expect(days).toEqual([expect.objectContaining({ start: '2026-10-20', contraction_usd: 10, churned_usd: 10 })]);
  });

  it('opens exactly the clients behind a figure', async () => {
    const { bodies } = revenueHistory(rcEvent);
    await deliverAll(bodies);
    expect(await clientsOf('revenue_figure=churned&revenue_from=2026-10-01&revenue_to=2026-11-01')).toEqual(idsOf('c', 'p', 'b'));
    expect(await clientsOf('revenue_figure=new&revenue_from=2026-10-01&revenue_to=2026-11-01')).toEqual(idsOf('tc', 'to'));
    expect(await clientsOf('revenue_figure=reactivated&revenue_from=2026-11-01&revenue_to=2026-12-01')).toEqual(idsOf('c'));
    // tc's last week ends on 11-26, after now (11-22): not churned yet, as the chart says.
    expect(await clientsOf('revenue_figure=churned&revenue_from=2026-11-01&revenue_to=2026-12-01')).toEqual([]);
    expect(await clientsOf('revenue_figure=expansion&revenue_from=2026-10-01&revenue_to=2026-11-01')).toEqual(idsOf('u'));
    expect(await clientsOf('revenue_figure=contraction&revenue_from=2026-10-01&revenue_to=2026-11-01')).toEqual(idsOf('d'));
    expect(await clientsOf('revenue_figure=paying&revenue_from=2026-11-22T12:00:00Z')).toEqual(idsOf('m', 'y', 'tc', 'u', 'd', 'c', 'to'));
    expect(await clientsOf('revenue_figure=trialing&revenue_from=2026-11-22T12:00:00Z')).toEqual(idsOf('tn'));
    expect(await clientsOf('revenue_figure=trial_converted&revenue_from=2026-10-01&revenue_to=2026-11-01')).toEqual(idsOf('tc'));
    expect(await clientsOf('revenue_figure=refund&revenue_from=2026-10-01&revenue_to=2026-11-01')).toEqual(idsOf('r'));
    expect(await clientsOf('revenue_figure=cohort_paying&revenue_from=2026-09-01&revenue_to=2026-11-01')).toEqual(idsOf('y', 'u'));

    const missing = await get('/api/client/v1/clients/1?revenue_figure=churned&revenue_from=2026-10-01');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('revenue_to');
    expect((await get('/api/client/v1/clients/1?revenue_figure=everything&revenue_from=2026-10-01')).statusCode).toBe(400);
  });

  it('keeps paying and activity cohorts', async () => {
    const [video] = await h.database.query<{ id: number }>("INSERT INTO videos (vimeo_video_id, title, duration) VALUES ('rev-1', 'Flow', 600) RETURNING id");
    const view = (client: string, at: string) =>
      h.database.query('INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3)', [ids[client], video!.id, at]);
    // Before the payments: July (before m's cohort, not counted) and September.
    await view('m', '2026-07-15T10:00:00Z');
    await view('m', '2026-09-15T10:00:00Z');
    const { bodies } = revenueHistory(rcEvent);
    await deliverAll(bodies);
    // After them: kept by the views' trigger.
    await view('m', '2026-11-02T10:00:00Z');
    await view('m', '2026-11-03T10:00:00Z');
    await view('y', '2026-10-05T10:00:00Z');

    expect((await json('/api/admin/v1/revenue/cohorts?kind=paying&interval=month&from=2026-06-01&to=2026-11-01')).cohorts).toEqual([
      { start: '2026-06-01', size: 1, retained: [1, 1, 1, 1, 1, 1] }, // d
      { start: '2026-07-01', size: 0, retained: [0, 0, 0, 0, 0] },
      { start: '2026-08-01', size: 2, retained: [2, 2, 2, 2] }, // m; c (away from 10-20 to 11-10 but paying in each month)
      { start: '2026-09-01', size: 4, retained: [4, 4, 2] }, // y, u, b, p; b and p end in October
      { start: '2026-10-01', size: 2, retained: [2, 2] }, // tc, to (r was refunded)
      { start: '2026-11-01', size: 0, retained: [0] },
    ]);
    expect((await json('/api/admin/v1/revenue/cohorts?kind=active&from=2026-08-01&to=2026-09-01')).cohorts).toEqual([
      { start: '2026-08-01', size: 2, retained: [0, 1, 0, 1] },
      { start: '2026-09-01', size: 4, retained: [0, 1, 0] },
    ]);
    expect(await clientsOf('revenue_figure=cohort_active&revenue_from=2026-08-01&revenue_to=2026-11-01')).toEqual(idsOf('m'));
  });

  it('converges whatever the order, and the backfill rebuilds the same figures, resumably', async () => {
    const { bodies } = revenueHistory(rcEvent);
    await deliverAll([...bodies].reverse());
    const summary = await json('/api/admin/v1/revenue/summary');
    const movement = await json('/api/admin/v1/revenue/mrr-movement?interval=month&from=2026-06-01&to=2026-11-30');
    expect(summary.mrr.usd).toBe(91.67);

    await h.database.execScript(
      'DELETE FROM revenue_changes; DELETE FROM revenue_days; DELETE FROM revenue_months; DELETE FROM revenue_periods; DELETE FROM revenue_client_months; DELETE FROM revenue_cohort_cells;',
    );
    expect((await json('/api/admin/v1/revenue/summary')).mrr.usd).toBe(0);
    const started = await h.app.inject({ method: 'POST', url: '/api/admin/v1/revenue/backfill', headers: { cookie } });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().state).toBe('running');
    await h.app.jobs.runDue();
    const progress = await json('/api/admin/v1/revenue/backfill');
    // Every client with stored events: all but 'from', whose events moved to 'to' (the sandbox one's are stored too).
    expect(progress).toMatchObject({ state: 'done', clients_done: 13, clients_total: 13 });
    expect(await json('/api/admin/v1/revenue/summary')).toEqual(summary);
    expect(await json('/api/admin/v1/revenue/mrr-movement?interval=month&from=2026-06-01&to=2026-11-30')).toEqual(movement);

    // A run stopped after its first batch of 5 (a deploy) resumes at the client it reached.
    await h.database.execScript(
      'DELETE FROM revenue_changes; DELETE FROM revenue_days; DELETE FROM revenue_months; DELETE FROM revenue_periods; DELETE FROM revenue_client_months; DELETE FROM revenue_cohort_cells;',
    );
    const stop = new AbortController();
    const job = { id: 9001, signal: stop.signal, heartbeat: async () => stop.abort() };
    await h.database.query("UPDATE revenue_backfill SET job_id = 9001, state = 'running', last_client_id = 0, clients_done = 0");
    await expect(runBackfill(h.database, () => h.clock.now(), job, 5)).rejects.toThrow('resumes where it stopped');
    expect(await json('/api/admin/v1/revenue/backfill')).toMatchObject({ state: 'running', clients_done: 5, clients_total: 13 });
    const again = { id: 9001, signal: new AbortController().signal, heartbeat: async () => {} };
    expect(await runBackfill(h.database, () => h.clock.now(), again, 5)).toEqual({ clients: 13 });
    expect(await json('/api/admin/v1/revenue/summary')).toEqual(summary);
    expect(await json('/api/admin/v1/revenue/mrr-movement?interval=month&from=2026-06-01&to=2026-11-30')).toEqual(movement);
  });

  it("counts RevenueCat's own sample events as documented", async () => {
    const weekly = await h.addClient({ email: 'weekly@example.test', rc: '1234567890' });
    await h.addClient({ email: 'refunded@example.test', rc: 'user_1234' });
    await h.addClient({ email: 'grant@example.test', rc: '41234567890' });
    // The weekly sample bought at 11-20 (its period: 7 days), the refund sample's period on 11-21, a temporary grant.
    const purchase = asDelivered(INITIAL_PURCHASE_SAMPLE, { id: 'sample-purchase', eventAt: new Date('2026-11-20T00:00:00Z') });
    await deliverAll([
      purchase,
      asDelivered(CANCELLATION_REFUND_SAMPLE, { id: 'sample-refund', eventAt: new Date('2026-11-21T00:00:00Z') }),
      asDelivered(TEMPORARY_ENTITLEMENT_GRANT_SAMPLE, { id: 'sample-grant', eventAt: new Date('2026-11-21T06:00:00Z') }),
    ]);
    // 4.99 a week × 52 ÷ 12 = 21.623…; the refunded period never counts; gross is both payments, refunds the 9.99.
    expect(await json('/api/admin/v1/revenue/summary')).toEqual({
      mrr: { usd: 21.62, by_currency: [] },
      active_subscriptions: 1,
      active_trials: 0,
      revenue_28d: { gross_usd: 14.98, refunds_usd: 9.99, net_usd: 4.99 },
      as_of: '2026-11-22T12:00:00.000Z',
    });
    expect((await json('/api/admin/v1/revenue/cancellations?interval=month&from=2026-11-01')).periods).toEqual([
      { start: '2026-11-01', total: 1, reasons: { CUSTOMER_SUPPORT: 1 } },
    ]);

    // The expiration sample of that same period, 39 s after it ended, as in the sample.
    const expiry = Number(purchase.event.expiration_at_ms);
    h.clock.set(new Date('2026-11-28T00:00:00Z'));
    cookie = await signIn(h.app); // the session of six days ago has lapsed
    await deliverAll([asDelivered(EXPIRATION_SAMPLE, { id: 'sample-expiration', eventAt: new Date(expiry + 39_232) })]);
    const summary = await json('/api/admin/v1/revenue/summary');
    expect(summary).toMatchObject({ mrr: { usd: 0 }, active_subscriptions: 0 });
    expect((await json('/api/admin/v1/revenue/mrr-movement?interval=month&from=2026-11-01')).periods).toEqual([
      {
        start: '2026-11-01',
        starting_usd: 0,
        new_usd: 21.62,
        expansion_usd: 0,
        contraction_usd: 0,
        churned_usd: 21.62,
        reactivated_usd: 0,
        net_usd: 0,
        ending_usd: 0,
      },
    ]);
    expect(await clientsOf('revenue_figure=churned&revenue_from=2026-11-01&revenue_to=2026-12-01')).toEqual([weekly]);
  });

  it("counts RevenueCat's RENEWAL sample, bought in EUR, in USD with the euros beside it", async () => {
    await h.addClient({ email: 'renewal@example.test', rc: '1234567890' });
    // The sample's renewal starts 8 h after its event (purchased_at_ms): 11-20 07:58, for 7 days.
    await deliverAll([asDelivered(RENEWAL_SAMPLE, { id: 'sample-renewal', eventAt: new Date('2026-11-20T00:00:00Z') })]);
    // 8.14 USD a week × 52 ÷ 12 = 35.273…; 7.99 EUR × 52 ÷ 12 = 34.623…
    expect(await json('/api/admin/v1/revenue/summary')).toEqual({
      mrr: { usd: 35.27, by_currency: [{ currency: 'EUR', amount: 34.62 }] },
      active_subscriptions: 1,
      active_trials: 0,
      revenue_28d: { gross_usd: 8.14, refunds_usd: 0, net_usd: 8.14 },
      as_of: '2026-11-22T12:00:00.000Z',
    });
    expect((await json('/api/admin/v1/revenue/mrr-movement?interval=day&from=2026-11-20&to=2026-11-20')).periods).toEqual([
      expect.objectContaining({ start: '2026-11-20', starting_usd: 0, new_usd: 35.27, ending_usd: 35.27 }),
    ]);
  });

  it('is for owners and managers only, and refuses a bad range with a clear message', async () => {
    const frontDesk = await signIn(h.app, { email: 'desk@studio.test', password: 'desk-password-long', role: 'front_desk' });
    expect((await get('/api/admin/v1/revenue/summary', frontDesk)).statusCode).toBe(403);
    const manager = await signIn(h.app, { email: 'manager@studio.test', password: 'manager-password-long', role: 'manager' });
    expect((await get('/api/admin/v1/revenue/summary', manager)).statusCode).toBe(200);
    const backwards = await get('/api/admin/v1/revenue/mrr?interval=month&from=2026-10-01&to=2026-09-01');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe('from (2026-10-01) is after to (2026-09-01)');
    const tooMany = await get('/api/admin/v1/revenue/mrr?interval=day&from=2020-01-01&to=2026-11-01');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toContain('at most 1200');
    expect((await get('/api/admin/v1/revenue/mrr?interval=year')).statusCode).toBe(400);
  });
});
