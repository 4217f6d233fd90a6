import { createElement, type ComponentType } from 'react';
import { lazyChunk } from '../common/chunks';
import type { ConsoleArea } from '../layout/area';
import { RequireAccess } from '../layout/RequireAccess';
import { videosData } from './videosData';
import { VideosMenu } from './VideosMenu';

export { SyncVimeoButton } from './SyncVimeoButton';
export { videosData } from './videosData';

// Checked before the page mounts: react-admin's own check would still send the page's request once.
const editorsOnly = (action: string, View: ComponentType) => () => createElement(RequireAccess, { resource: 'videos', action, children: createElement(View) });

/** The Video Manager is plain CRUD: a react-admin <Resource> (list at /videos, edit at /videos/:id). */
// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const videosArea: ConsoleArea<readonly [typeof videosData]> = {
  name: 'videos',
  data: [videosData] as const,
  resource: {
    name: 'videos',
    list: editorsOnly(
      'list',
      lazyChunk(() => import('./VideoList')),
    ),
    edit: editorsOnly(
      'edit',
      lazyChunk(() => import('./VideoEdit')),
    ),
  },
  MenuEntry: VideosMenu,
};
