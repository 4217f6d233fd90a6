import type { StatsResponse, StatsTrendsResponse } from '@contract/stats';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type DashboardMethods = {
  /** The spec's GET /api/stats/v1: the three card figures, with in-band errors. */
  getStats: () => Promise<StatsResponse>;
  /** Our extension: daily plays over the last 30 days and paid subscribers over the last 12 weeks. */
  getStatsTrends: () => Promise<StatsTrendsResponse>;
};

export const dashboardData = (http: HttpClient) =>
  ({
    methods: {
      getStats: async () => (await http('/api/stats/v1')).json as StatsResponse,
      getStatsTrends: async () => (await http('/api/admin/v1/stats/trends')).json as StatsTrendsResponse,
    },
  }) satisfies DataModule<DashboardMethods>;
