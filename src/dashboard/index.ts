import { createElement, lazy } from 'react';
import type { AreaRoute } from '../layout/routes';

/** Also <Admin dashboard>, which serves '/'. */
export const Dashboard = lazy(() => import('./Dashboard'));

export const dashboardRoutes: AreaRoute[] = [{ path: '/dashboard', element: createElement(Dashboard) }];
