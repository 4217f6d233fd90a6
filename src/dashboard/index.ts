import { createElement } from 'react';
import { lazyPage } from '../common/lazyPage';
import type { ConsoleArea } from '../layout/area';
import { dashboardData } from './dashboardData';
import { DashboardMenuItem } from './DashboardMenuItem';

/** Also <Admin dashboard>, which serves '/'. */
export const { Page: Dashboard, preload: loadDashboard } = lazyPage(() => import('./Dashboard'));

// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const dashboardArea: ConsoleArea<readonly [typeof dashboardData]> = {
  name: 'dashboard',
  data: [dashboardData] as const,
  routes: [{ path: '/dashboard', element: createElement(Dashboard), preload: loadDashboard }],
  MenuEntry: DashboardMenuItem,
};
