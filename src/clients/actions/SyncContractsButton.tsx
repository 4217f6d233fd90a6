import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ClientRecord } from '../clientsData';

/**
 * 'Sync Contracts' in the MindBody Contracts section. Extension point: the confirmation modal,
 * the sync call and the 'Sync Complete'/'Sync Failed' indicators come with issue 5; after a sync
 * it invalidates clientSectionKey(client._id, 'contracts').
 */
export const SyncContractsButton = (_props: { client: ClientRecord }) => {
  const translate = useTranslate();
  return (
    <Button size="small" variant="outlined">
      {translate('client.sections.contracts.sync')}
    </Button>
  );
};
