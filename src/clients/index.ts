import { createElement, lazy } from 'react';
import type { ConsoleArea } from '../layout/area';
import { RequireAccess } from '../layout/RequireAccess';
import { clientListPath, clientLists } from './clientLists';
import { clientsData } from './clientsData';
import { mindbodySyncData } from './mindbodySyncData';
import { ClientsMenu } from './ClientsMenu';
import { overridesData } from './overridesData';
import { client360Data } from './client360Data';

export { clientLists, clientListPath, clientPath } from './clientLists';

const loadClientListPage = () => import('./ClientListPage');
const ClientListPage = lazy(loadClientListPage);
const ClientShow = lazy(() => import('./ClientShow'));
const OverrideList = lazy(() => import('./overrides/OverrideList'));

/** Clients › Overrides (issue 24): the running access-level overrides. */
export const OVERRIDES_PATH = '/overrides';

// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const clientsArea: ConsoleArea<readonly [typeof clientsData, typeof mindbodySyncData, typeof overridesData, typeof client360Data]> = {
  name: 'clients',
  data: [clientsData, mindbodySyncData, overridesData, client360Data] as const,
  // Checked before the page mounts: react-admin's own check would still send the list's request once.
  routes: [
    ...clientLists.map((list) => ({
      path: clientListPath(list),
      element: createElement(RequireAccess, {
        key: list.id,
        resource: 'clients',
        action: 'list',
        children: createElement(ClientListPage, { listId: list.id }),
      }),
      preload: loadClientListPage,
    })),
    { path: OVERRIDES_PATH, element: createElement(RequireAccess, { resource: 'overrides', action: 'list', children: createElement(OverrideList) }) },
    { path: '/client/:id', element: createElement(RequireAccess, { resource: 'clients', action: 'show', children: createElement(ClientShow) }) },
  ],
  MenuEntry: ClientsMenu,
};
