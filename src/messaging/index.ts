import { createElement, lazy } from 'react';
import type { AreaRoute } from '../layout/routes';
import { messageTypes, messagingPath } from './messageTypes';

export { messageTypes, messagingPath, type MessageType } from './messageTypes';

const MessagingPage = lazy(() => import('./MessagingPage'));

// `key` gives each type its own page instance, so no state leaks between types.
export const messagingRoutes: AreaRoute[] = messageTypes.map((type) => ({
  path: messagingPath(type),
  element: createElement(MessagingPage, { key: type.id, typeId: type.id }),
}));
