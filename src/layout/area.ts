import type { ComponentType, ReactElement } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { DataProvider } from 'react-admin';
import type { DataModuleFactory } from '../providers/dataModule';

/** A page that is not a react-admin resource view (a client list, a messaging page, …). */
export interface AreaRoute {
  path: string;
  element: ReactElement;
  /** Fetches the page's code; App.tsx starts it at once when the console opens on this page. */
  preload?: () => Promise<unknown>;
  /**
   * Asks, through `dataProvider`, for what the page will ask first, when App.tsx can know it (a first
   * visit): started beside the page's code, the answer is handed to the page's identical request.
   * `can` is the signed-in role's canAccess: a page the role may not use asks nothing. A page whose
   * first read is a react-admin query may put it in `queryClient` (the console's), to be read at once.
   */
  prefetch?: (dataProvider: DataProvider, can: (resource: string, action: string) => boolean, queryClient: QueryClient) => unknown;
}

/** A plain CRUD area is a react-admin <Resource>, as in react-admin's own examples. */
export interface AreaResource {
  name: string;
  list?: ComponentType;
  edit?: ComponentType;
  create?: ComponentType;
}

/**
 * One area of the console, registered once in src/areas.ts: App.tsx reads its routes and
 * resource, the dataProvider its data modules, the sidebar its menu entry (in list order).
 */
export interface ConsoleArea<Data extends readonly DataModuleFactory[] = readonly DataModuleFactory[]> {
  name: string;
  /** Typed exactly (each area's variable names its factories), so the dataProvider's named methods are typed. */
  data: Data;
  routes?: readonly AreaRoute[];
  resource?: AreaResource;
  /** Its sidebar entry; it checks the role itself (useCan) and renders nothing when not allowed. */
  MenuEntry?: ComponentType;
}
