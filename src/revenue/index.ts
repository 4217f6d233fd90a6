import { createElement } from 'react';
import { lazyPage } from '../common/lazyPage';
import type { ConsoleArea } from '../layout/area';
import { RequireAccess } from '../layout/RequireAccess';
import { revenueData } from './revenueData';
import { RevenueMenuItem } from './RevenueMenuItem';
import { REVENUE_PATH } from './revenuePaths';

export { revenueData } from './revenueData';
export { REVENUE_PATH } from './revenuePaths';

const { Page: RevenuePage, preload } = lazyPage(() => import('./RevenuePage'));

/** The Revenue area (docs/revenue.md): 'revenue.read', owners and managers. */
// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const revenueArea: ConsoleArea<readonly [typeof revenueData]> = {
  name: 'revenue',
  data: [revenueData] as const,
  routes: [
    { path: REVENUE_PATH, element: createElement(RequireAccess, { resource: 'revenue', action: 'list', children: createElement(RevenuePage) }), preload },
  ],
  MenuEntry: RevenueMenuItem,
};
