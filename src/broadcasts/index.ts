import { createElement } from 'react';
import { lazyChunk } from '../common/chunks';
import type { ConsoleArea } from '../layout/area';
import { RequireAccess } from '../layout/RequireAccess';
import { broadcastsData } from './broadcastsData';
import { BROADCASTS_PATH } from './paths';

export { broadcastsData } from './broadcastsData';
export { BroadcastButton } from './BroadcastButton';
export { BROADCASTS_PATH } from './paths';

const BroadcastList = lazyChunk(() => import('./BroadcastList'));

/** The Broadcasts history page ('clients.read'; sending and cancelling need 'messaging.edit'); its sidebar entry sits in the Clients group. */
// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const broadcastsArea: ConsoleArea<readonly [typeof broadcastsData]> = {
  name: 'broadcasts',
  data: [broadcastsData] as const,
  routes: [
    { path: BROADCASTS_PATH, element: createElement(RequireAccess, { resource: 'broadcasts', action: 'list', children: createElement(BroadcastList) }) },
  ],
};
