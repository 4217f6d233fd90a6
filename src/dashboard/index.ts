import { createElement } from 'react';
import { lazyPage } from '../common/lazyPage';
import type { ConsoleArea } from '../layout/area';
import { dashboardData, type DashboardMethods } from './dashboardData';
import { DashboardMenuItem } from './DashboardMenuItem';

export const DASHBOARD_PATH = '/dashboard';

/** Also <Admin dashboard>, which serves '/'. */
export const { Page: Dashboard, preload: loadDashboard } = lazyPage(() => import('./Dashboard'));

// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const dashboardArea: ConsoleArea<readonly [typeof dashboardData]> = {
  name: 'dashboard',
  data: [dashboardData] as const,
  routes: [
    {
      path: DASHBOARD_PATH,
      element: createElement(Dashboard),
      preload: loadDashboard,
      // The cards' figures and the trend below them: what the dashboard always asks first.
      prefetch: (dataProvider, can) => {
        if (!can('dashboard', 'read')) return undefined;
        const { getStats, getStatsTrends } = dataProvider as unknown as DashboardMethods;
        return Promise.all([getStats(), getStatsTrends()]);
      },
    },
  ],
  MenuEntry: DashboardMenuItem,
};
