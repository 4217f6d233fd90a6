import { createElement, lazy } from 'react';
import type { AreaRoute } from '../layout/routes';

export { auditData } from './auditData';

export const AUDIT_PATH = '/audit';
export const SESSIONS_PATH = '/sessions';

const AuditList = lazy(() => import('./AuditList'));
const SessionList = lazy(() => import('../sessions/SessionList'));

export const auditRoutes: AreaRoute[] = [
  { path: AUDIT_PATH, element: createElement(AuditList) },
  { path: SESSIONS_PATH, element: createElement(SessionList) },
];
