import { useState } from 'react';
import { Button } from '@mui/material';
import { downloadCSV, useListContext, useTranslate } from 'react-admin';
import { useCan } from '../../layout/useCan';
import type { ClientRecord } from '../clientsData';
import { clientsCsv } from '../clientsExporter';
import { clientFilterOf } from '../../common/listPaging';
import { useBulkScope, type BulkTarget } from './bulkScope';
import { BulkDialog } from './BulkDialog';

/**
 * The client list's bulk actions (docs/features.md#bulk-actions), shown once rows are selected: on
 * the selected rows, or (after 'Select all N matching') on every client the list's filter selects.
 * Push needs clients.push on selected rows and messaging.edit on all matching (a broadcast), an
 * override clients.override; the CSV is the selected rows (all matching: the list's Export).
 */
export const ClientBulkActions = () => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`clients.bulk.${key}`, options);
  const { selectedIds, data, total, filterValues } = useListContext<ClientRecord>();
  const scope = useBulkScope();
  const [allMatching, setAllMatching] = useState(false);
  const [dialog, setDialog] = useState<'push' | 'override' | null>(null);
  // Pushing to every matching client is a broadcast (messaging.edit); a selection of rows is clients.push.
  const canPushSelected = useCan('clients', 'bulk_push');
  const canPushAll = useCan('clients', 'bulk_push_all');
  const canOverride = useCan('clients', 'bulk_override');
  const pageSelected = (data ?? []).length > 0 && (data ?? []).every((record) => selectedIds.includes(record.id));
  const everyone = allMatching && pageSelected;
  const count = everyone ? (total ?? selectedIds.length) : selectedIds.length;
  const target: BulkTarget = everyone ? { filter: { ...clientFilterOf(filterValues), ...scope } } : { client_ids: selectedIds.map(Number) };
  const canPush = everyone ? canPushAll : canPushSelected;
  const exportSelected = () =>
    downloadCSV(
      clientsCsv(
        (data ?? []).filter((record) => selectedIds.includes(record.id)),
        new Date(),
      ),
      'clients',
    );
  return (
    <>
      {pageSelected && (total ?? 0) > selectedIds.length && (
        <Button size="small" onClick={() => setAllMatching(!everyone)} aria-pressed={everyone}>
          {everyone ? t('only_page', { count: selectedIds.length }) : t('select_all', { count: (total ?? 0).toLocaleString() })}
        </Button>
      )}
      {canPush && (
        <Button size="small" onClick={() => setDialog('push')}>
          {t('push', { smart_count: count, count: count.toLocaleString() })}
        </Button>
      )}
      {canOverride && (
        <Button size="small" onClick={() => setDialog('override')}>
          {t('override', { smart_count: count, count: count.toLocaleString() })}
        </Button>
      )}
      {!everyone && (
        <Button size="small" onClick={exportSelected}>
          {t('export', { smart_count: count, count: count.toLocaleString() })}
        </Button>
      )}
      {dialog && <BulkDialog kind={dialog} target={target} count={count} open onClose={() => setDialog(null)} />}
    </>
  );
};
