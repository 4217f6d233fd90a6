import { createElement, lazy } from 'react';
import type { ConsoleArea } from '../layout/area';
import { dashboardData } from './dashboardData';
import { DashboardMenuItem } from './DashboardMenuItem';

/** Also <Admin dashboard>, which serves '/'. */
export const loadDashboard = () => import('./Dashboard');
export const Dashboard = lazy(loadDashboard);

// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const dashboardArea: ConsoleArea<readonly [typeof dashboardData]> = {
  name: 'dashboard',
  data: [dashboardData] as const,
  routes: [{ path: '/dashboard', element: createElement(Dashboard), preload: loadDashboard }],
  MenuEntry: DashboardMenuItem,
};
