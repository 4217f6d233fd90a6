import { createElement } from 'react';
import { lazyChunk } from '../common/chunks';
import type { ConsoleArea } from '../layout/area';
import { RequireAccess } from '../layout/RequireAccess';
import { DATA_REQUESTS_PATH, dataRequestsData } from './dataRequestsData';
import { DataRequestsMenuItem } from './DataRequestsMenuItem';

export { dataRequestsData, DATA_REQUESTS_PATH } from './dataRequestsData';

const DataRequestsPage = lazyChunk(() => import('./DataRequestsPage'));

/** Clients' access and erasure requests with their due dates, and the retention settings (clients.erase). */
// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const dataRequestsArea: ConsoleArea<readonly [typeof dataRequestsData]> = {
  name: 'data-requests',
  data: [dataRequestsData] as const,
  routes: [
    {
      path: DATA_REQUESTS_PATH,
      element: createElement(RequireAccess, { resource: 'data-requests', action: 'list', children: createElement(DataRequestsPage) }),
    },
  ],
  MenuEntry: DataRequestsMenuItem,
};
