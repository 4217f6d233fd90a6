import type {
  CancellationResponse,
  ChurnResponse,
  CohortResponse,
  ConversionResponse,
  MovementResponse,
  MrrResponse,
  RevenueResponse,
  RevenueSummary,
} from '@contract/revenue';
import type { Interval } from '@contract/revenueRules';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

export interface RevenueRange {
  interval: Interval;
  from: string;
  to: string;
}

export interface RevenueCharts {
  mrr: MrrResponse;
  movement: MovementResponse;
  conversion: ConversionResponse;
  churn: ChurnResponse;
  revenue: RevenueResponse;
  cancellations: CancellationResponse;
}

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type RevenueMethods = {
  getRevenueSummary: () => Promise<RevenueSummary>;
  /** MRR alone over the range: the dashboard's card needs no other chart. */
  getRevenueMrr: (range: RevenueRange) => Promise<MrrResponse>;
  /** Every chart of the range, asked for together. */
  getRevenueCharts: (range: RevenueRange) => Promise<RevenueCharts>;
  getRevenueCohorts: (kind: 'paying' | 'active', from: string, to: string) => Promise<CohortResponse>;
};

const BASE = '/api/admin/v1/revenue';

/** The Revenue area's calls (docs/revenue.md). */
export const revenueData = (http: HttpClient) => {
  const get = async <T>(path: string, query: Record<string, string> = {}) => (await http(`${BASE}/${path}?${new URLSearchParams(query)}`)).json as T;
  return {
    methods: {
      getRevenueSummary: () => get<RevenueSummary>('summary'),
      getRevenueMrr: (range) => get<MrrResponse>('mrr', { interval: range.interval, from: range.from, to: range.to }),
      getRevenueCharts: async (range) => {
        const query = { interval: range.interval, from: range.from, to: range.to };
        const [mrr, movement, conversion, churn, revenue, cancellations] = await Promise.all([
          get<MrrResponse>('mrr', query),
          get<MovementResponse>('mrr-movement', query),
          get<ConversionResponse>('conversion', query),
          get<ChurnResponse>('churn', query),
          get<RevenueResponse>('revenue', query),
          get<CancellationResponse>('cancellations', query),
        ]);
        return { mrr, movement, conversion, churn, revenue, cancellations };
      },
      getRevenueCohorts: (kind, from, to) => get<CohortResponse>('cohorts', { kind, interval: 'month', from, to }),
    },
  } satisfies DataModule<RevenueMethods>;
};
