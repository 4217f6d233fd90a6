import { createElement, type ComponentType } from 'react';
import { lazyChunk } from '../common/chunks';
import type { ConsoleArea } from '../layout/area';
import { RequireAccess } from '../layout/RequireAccess';
import { STAFF_RESOURCE, staffData } from './staffData';
import { StaffMenuItem } from './StaffMenuItem';

export { staffData } from './staffData';
export { STAFF_RESOURCE } from './staffData';

// react-admin's views ask canAccess themselves but still send their first request once; checking
// before they mount keeps a non-owner's stray visit from reaching the server at all.
const ownersOnly = (action: string, View: ComponentType) => () => createElement(RequireAccess, { resource: 'staff', action, children: createElement(View) });

/** A react-admin <Resource> (list, create, edit) for owners ('staff.manage'). */
// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const staffArea: ConsoleArea<readonly [typeof staffData]> = {
  name: 'staff',
  data: [staffData] as const,
  resource: {
    name: STAFF_RESOURCE,
    list: ownersOnly(
      'list',
      lazyChunk(() => import('./StaffList')),
    ),
    create: ownersOnly(
      'create',
      lazyChunk(() => import('./StaffCreate')),
    ),
    edit: ownersOnly(
      'edit',
      lazyChunk(() => import('./StaffEdit')),
    ),
  },
  MenuEntry: StaffMenuItem,
};
