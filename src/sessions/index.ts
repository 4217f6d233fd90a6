import { lazyChunk } from '../common/chunks';
import type { ConsoleArea } from '../layout/area';
import { SESSIONS_RESOURCE, sessionsData } from './sessionsData';

export const SESSIONS_PATH = `/${SESSIONS_RESOURCE}`;

/** 'My sessions', a react-admin <Resource> (list at /sessions); reached from the user menu, not the sidebar. */
// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const sessionsArea: ConsoleArea<readonly [typeof sessionsData]> = {
  name: 'sessions',
  data: [sessionsData] as const,
  resource: { name: SESSIONS_RESOURCE, list: lazyChunk(() => import('./SessionList')) },
};
