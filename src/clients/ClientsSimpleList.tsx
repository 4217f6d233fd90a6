import { Box } from '@mui/material';
import { SimpleList, useTranslate } from 'react-admin';
import { clientPath } from './clientLists';
import type { ClientRecord } from './clientsData';
import { NewBadge } from './NewBadge';

const fullName = (client: ClientRecord) => [client.first_name, client.last_name].filter((part) => part && part.trim()).join(' ');

/**
 * The client list on a phone (under the `sm` breakpoint), as react-admin's demo does it: one card
 * per client with the table's columns folded into three lines. Each card is a button: Tab reaches
 * it and Enter opens the client.
 */
export const ClientsSimpleList = () => {
  const translate = useTranslate();
  return (
    <SimpleList<ClientRecord>
      rowClick={(_id, _resource, record) => clientPath(record._id)}
      primaryText={(client) => fullName(client) || translate('client.unknown')}
      tertiaryText={(client) => <NewBadge firstLogin={client.first_login} />}
      secondaryText={(client) => (
        <>
          <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
            {client.email_address}
          </Box>
          <Box component="span" sx={{ display: 'block' }}>
            {[client.name, client.client_status].filter(Boolean).join(' · ')}
          </Box>
        </>
      )}
      sx={{ '.MuiListItemButton-root:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: '-2px' } }}
    />
  );
};
