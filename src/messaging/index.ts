import { createElement } from 'react';
import { lazyChunk } from '../common/chunks';
import type { ConsoleArea } from '../layout/area';
import { RequireAccess } from '../layout/RequireAccess';
import { messageTypes, messagingPath } from './messageTypes';
import { messagingData } from './messagingData';
import { automationData } from './automation/automationData';
import { MessagingMenu } from './MessagingMenu';

export { messageTypes, messagingPath, type MessageType } from './messageTypes';

const MessagingPage = lazyChunk(() => import('./MessagingPage'));

// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const messagingArea: ConsoleArea<readonly [typeof messagingData, typeof automationData]> = {
  name: 'messaging',
  data: [messagingData, automationData] as const,
  // `key` gives each type its own page instance, so no state leaks between types. Editors only ('messaging.edit').
  routes: messageTypes.map((type) => ({
    path: messagingPath(type),
    element: createElement(RequireAccess, { key: type.id, resource: 'messaging', action: 'edit', children: createElement(MessagingPage, { typeId: type.id }) }),
  })),
  MenuEntry: MessagingMenu,
};
