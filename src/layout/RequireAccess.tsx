import type { ReactNode } from 'react';
import { AccessDenied, CanAccess } from 'react-admin';

/**
 * A screen that is not a react-admin view (those ask canAccess themselves): shown only when the
 * role may use it, react-admin's 'access denied' page otherwise (a bookmark, a typed URL).
 */
export const RequireAccess = ({ resource, action, children }: { resource: string; action: string; children: ReactNode }) => (
  <CanAccess resource={resource} action={action} accessDenied={<AccessDenied />}>
    {children}
  </CanAccess>
);
