import { createElement, lazy } from 'react';
import type { AreaRoute } from '../layout/routes';

export { SyncVimeoButton } from './SyncVimeoButton';
export { videosData } from './videosData';

const VideoList = lazy(() => import('./VideoList'));
const VideoEdit = lazy(() => import('./VideoEdit'));

export const videosRoutes: AreaRoute[] = [
  { path: '/videos', element: createElement(VideoList) },
  { path: '/videos/:id', element: createElement(VideoEdit) },
];
