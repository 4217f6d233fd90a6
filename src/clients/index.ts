import { createElement } from 'react';
import { lazyChunk } from '../common/chunks';
import type { QueryClient } from '@tanstack/react-query';
import type { DataProvider } from 'react-admin';
import { EARLY_GET_TTL_MS } from '../providers/http';
import { lazyPage } from '../common/lazyPage';
import type { ConsoleArea } from '../layout/area';
import { RequireAccess } from '../layout/RequireAccess';
import { CLIENT_LIST_DEFAULTS, clientListPath, clientLists } from './clientLists';
import { clientListResource, clientsData } from './clientsData';
import { mindbodySyncData } from './mindbodySyncData';
import { ClientsMenu } from './ClientsMenu';
import { overridesData } from './overridesData';
import { clientProfileData } from './clientProfileData';
import { dataRightsData } from './dataRights/dataRightsData';

export { clientLists, clientListPath, clientPath } from './clientLists';

// The pages a console most often opens on (a list, a client's page from a link) are fetched at once then.
const { Page: ClientListPage, preload: preloadClientListPage } = lazyPage(() => import('./ClientListPage'));
const { Page: ClientShow, preload: preloadClientShow } = lazyPage(() => import('./ClientShow'));
const OverrideList = lazyChunk(() => import('./overrides/OverrideList'));

const keptListParams = (resource: string) => {
  try {
    return window.localStorage.getItem(`RaStore.${resource}`) !== null;
  } catch {
    return true; // storage unreadable: react-admin's store may still hold parameters in memory
  }
};

/**
 * On a first visit (no list parameters in the URL, none kept in react-admin's store) a list asks for
 * its first page with its defaults, which can be fetched beside the page's code. The answer goes
 * where react-admin's list reads it (useGetList's query), so the list shows its rows at its first
 * render instead of renders later, and is fresh while an early answer is kept: the list does not ask
 * again as it mounts.
 */
const prefetchFirstPage = (resource: string) => (dataProvider: DataProvider, can: (resource: string, action: string) => boolean, queryClient: QueryClient) => {
  if (!can('clients', 'list') || window.location.search !== '' || keptListParams(resource)) return undefined;
  const { sort, perPage } = CLIENT_LIST_DEFAULTS;
  const params = { pagination: { page: 1, perPage }, sort, filter: {}, meta: {} };
  const queryKey = [resource, 'getList', params];
  queryClient.setQueryDefaults(queryKey, { staleTime: EARLY_GET_TTL_MS });
  // Later visits of this list ask as usual.
  setTimeout(() => queryClient.setQueryDefaults(queryKey, {}), EARLY_GET_TTL_MS);
  return queryClient.prefetchQuery({
    queryKey,
    queryFn: () => dataProvider.getList(resource, params).then(({ data, total, pageInfo, meta }) => ({ data, total, pageInfo, meta })),
  });
};

/** Clients › Overrides: the running access-level overrides. */
export const OVERRIDES_PATH = '/overrides';

// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const clientsArea: ConsoleArea<
  readonly [typeof clientsData, typeof mindbodySyncData, typeof overridesData, typeof clientProfileData, typeof dataRightsData]
> = {
  name: 'clients',
  data: [clientsData, mindbodySyncData, overridesData, clientProfileData, dataRightsData] as const,
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
      preload: preloadClientListPage,
      prefetch: prefetchFirstPage(clientListResource(list)),
    })),
    { path: OVERRIDES_PATH, element: createElement(RequireAccess, { resource: 'overrides', action: 'list', children: createElement(OverrideList) }) },
    {
      path: '/client/:id',
      element: createElement(RequireAccess, { resource: 'clients', action: 'show', children: createElement(ClientShow) }),
      preload: preloadClientShow,
    },
  ],
  MenuEntry: ClientsMenu,
};
