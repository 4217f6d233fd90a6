import { createElement, type ComponentType } from 'react';
import { lazyChunk } from '../common/chunks';
import type { AreaRoute, ConsoleArea } from '../layout/area';
import { segmentsData } from './segmentsData';
import { RequireAccess } from '../layout/RequireAccess';
import { AT_RISK_PATH, SEGMENT_NEW_PATH } from './segmentPaths';

export { segmentsData } from './segmentsData';
export { SegmentMenuItems } from './SegmentMenuItems';
export * from './segmentPaths';

const SegmentCreate = lazyChunk(() => import('./SegmentCreate'));
const SegmentListPage = lazyChunk(() => import('./SegmentListPage'));
const AtRiskList = lazyChunk(() => import('./AtRiskList'));

const guarded = (path: string, action: string, View: ComponentType): AreaRoute => ({
  path,
  element: createElement(RequireAccess, { resource: 'segments', action, children: createElement(View) }),
});

/** Segments and the at-risk list (docs/features.md#segments): 'clients.read'. Their sidebar entries sit in the Clients group. */
// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const segmentsArea: ConsoleArea<readonly [typeof segmentsData]> = {
  name: 'segments',
  data: [segmentsData] as const,
  routes: [guarded(SEGMENT_NEW_PATH, 'create', SegmentCreate), guarded(AT_RISK_PATH, 'list', AtRiskList), guarded('/segments/:id', 'show', SegmentListPage)],
};
