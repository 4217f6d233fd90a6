import type { ReactElement } from 'react';

/** What each area's index.ts exports; App.tsx turns them into react-admin custom routes. */
export interface AreaRoute {
  path: string;
  element: ReactElement;
}
