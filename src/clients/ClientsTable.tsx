import { Box, CircularProgress, Typography } from '@mui/material';
import { DataTable, useListContext, useTranslate } from 'react-admin';
import { clientPath } from './clientLists';
import type { ClientRecord } from './clientsData';
import { NewBadge } from './NewBadge';

/** Spec §2 'Client list': a spinner while loading, 'No Clients to Show' when empty, a row opens the client. */
export const ClientsTable = () => {
  const translate = useTranslate();
  const { isPending, data } = useListContext<ClientRecord>();
  if (isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={translate('clients.loading')} />
      </Box>
    );
  }
  if (!data?.length) {
    return (
      <Typography sx={{ p: 3 }} color="text.secondary">
        {translate('clients.empty')}
      </Typography>
    );
  }
  return (
    <DataTable<ClientRecord> rowClick={(_id, _resource, record) => clientPath(record._id)} bulkActionButtons={false}>
      <DataTable.Col source="first_login" label={translate('clients.columns.new')} render={(record) => <NewBadge firstLogin={record.first_login} />} />
      <DataTable.Col source="first_name" label={translate('clients.columns.first_name')} />
      <DataTable.Col source="last_name" label={translate('clients.columns.last_name')} />
      <DataTable.Col source="email_address" label={translate('clients.columns.email')} />
      <DataTable.Col source="vod_access_level" label={translate('clients.columns.vod_access_level')} render={(record) => record.name ?? ''} />
      <DataTable.Col source="client_status" label={translate('clients.columns.status')} />
    </DataTable>
  );
};
