import { createElement } from 'react';
import { lazyChunk } from '../common/chunks';
import type { ConsoleArea } from '../layout/area';
import { RequireAccess } from '../layout/RequireAccess';
import { AUDIT_RESOURCE, auditData } from './auditData';
import { AuditMenuItem } from './AuditMenuItem';

export { auditData } from './auditData';

export const AUDIT_PATH = `/${AUDIT_RESOURCE}`;

const AuditList = lazyChunk(() => import('./AuditList'));

/** A react-admin <Resource> (list at /audit). */
// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const auditArea: ConsoleArea<readonly [typeof auditData]> = {
  name: 'audit',
  data: [auditData] as const,
  // Checked before the page mounts: react-admin's own check would still send the list's request once.
  resource: { name: AUDIT_RESOURCE, list: () => createElement(RequireAccess, { resource: 'audit', action: 'list', children: createElement(AuditList) }) },
  MenuEntry: AuditMenuItem,
};
