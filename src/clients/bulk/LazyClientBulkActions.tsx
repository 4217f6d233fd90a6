import { Suspense } from 'react';
import { useListContext } from 'react-admin';
import { lazyChunk } from '../../common/chunks';

const ClientBulkActions = lazyChunk(() => import('./ClientBulkActions').then(({ ClientBulkActions }) => ({ default: ClientBulkActions })));

/**
 * The bulk actions of a client list, fetched when the first client is selected: until then the
 * bulk toolbar is collapsed and they are not needed for the list's first rows (nor in the Tab order).
 */
export const LazyClientBulkActions = () => {
  const { selectedIds } = useListContext();
  return selectedIds.length > 0 ? (
    <Suspense fallback={null}>
      <ClientBulkActions />
    </Suspense>
  ) : null;
};
