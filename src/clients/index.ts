import { createElement, lazy } from 'react';
import type { AreaRoute } from '../layout/routes';
import { clientListPath, clientLists } from './clientLists';

export { clientLists, clientListPath, clientPath } from './clientLists';

const ClientListPage = lazy(() => import('./ClientListPage'));
const ClientShow = lazy(() => import('./ClientShow'));

export const clientsRoutes: AreaRoute[] = [
  ...clientLists.map((list) => ({
    path: clientListPath(list),
    element: createElement(ClientListPage, { key: list.id, listId: list.id }),
  })),
  { path: '/client/:id', element: createElement(ClientShow) },
];
