import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@contract/common';
import {
  BackfillState,
  CancellationResponse,
  ChurnResponse,
  CohortQuery,
  CohortResponse,
  ConversionResponse,
  MovementResponse,
  MrrResponse,
  RevenueRangeQuery,
  RevenueResponse,
  RevenueSummary,
} from '@contract/revenue';
import { auditActor, recordAudit } from '../audit/record';
import { backfillState, startBackfill } from '../revenue/backfill';
import { CHART_READS, chartBuckets, cohorts, revenueSummary, type ChartRead } from '../revenue/figures';
import { cancellationSeries, churnSeries, conversionSeries, movementSeries, mrrSeries, revenueSeries, type Buckets } from '../revenue/series';

const ADMIN = '/api/admin/v1/revenue';
const tags = ['revenue (extension)'];

/** The Revenue area (docs/revenue.md): figures from the kept tables, never a scan of the events. */
const revenueRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { permission: 'revenue.read' as const };

  app.get(
    `${ADMIN}/summary`,
    {
      config,
      schema: { tags, summary: 'MRR, active subscriptions and trials now, revenue of the last 28 days', response: { 200: RevenueSummary, ...errorResponses } },
    },
    async () => revenueSummary(app.database, app.clock.now()),
  );

  const chart = (path: string, summary: string, response: z.ZodType, build: (buckets: Buckets) => unknown, read: ChartRead) =>
    app.get(
      `${ADMIN}/${path}`,
      { config, schema: { tags, summary, querystring: RevenueRangeQuery, response: { 200: response, ...errorResponses } } },
      async (request) => {
        const asOf = app.clock.now();
        return { periods: build(await chartBuckets(app.database, request.query, asOf, read)), as_of: asOf.toISOString() };
      },
    );

  chart('mrr', "MRR, active subscriptions and active trials at each period's end", MrrResponse, mrrSeries, CHART_READS.mrr);
  chart(
    'mrr-movement',
    'MRR movement per period: new, expansion, contraction, churned, reactivated; start + movements = end',
    MovementResponse,
    movementSeries,
    CHART_READS.movement,
  );
  chart('conversion', 'Of the trials started in each period, how many became paid', ConversionResponse, conversionSeries, CHART_READS.conversion);
  chart('churn', 'Subscriber churn: subscriptions that ended in each period ÷ those active at its start', ChurnResponse, churnSeries, CHART_READS.churn);
  chart('revenue', 'Revenue per period: gross, refunds, net (USD)', RevenueResponse, revenueSeries, CHART_READS.revenue);
  chart('cancellations', 'Cancellations per period by RevenueCat cancel_reason', CancellationResponse, cancellationSeries, CHART_READS.cancellations);

  app.get(
    `${ADMIN}/cohorts`,
    {
      config,
      schema: {
        tags,
        summary: 'Cohorts by the month of the first paid purchase: how many pay (or took a class or streamed) N months later',
        querystring: CohortQuery,
        response: { 200: CohortResponse, ...errorResponses },
      },
    },
    async (request) => cohorts(app.database, request.query, app.clock.now()),
  );

  app.get(
    `${ADMIN}/backfill`,
    { config, schema: { tags, summary: "The backfill's progress", response: { 200: BackfillState, ...errorResponses } } },
    async () => backfillState(app.database),
  );

  app.post(
    `${ADMIN}/backfill`,
    {
      config,
      schema: {
        tags,
        summary: 'Recomputes the kept figures from every stored RevenueCat event (after a restore); joins one already running',
        response: { 200: BackfillState, ...errorResponses },
      },
    },
    async (request) => {
      const state = await startBackfill(app);
      await recordAudit(app.database, { ...auditActor(request), action: 'revenue.backfill', target_type: 'revenue_backfill', target_id: state.job_id });
      return state;
    },
  );
};

export default revenueRoutes;
