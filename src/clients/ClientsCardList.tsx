import { Box, Button, Checkbox, List, ListItem, ListItemButton, ListItemText } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { BulkActionsToolbar, useListContext, useTranslate } from 'react-admin';
import { clientPath } from './clientLists';
import type { ClientRecord } from './clientsData';
import { NewBadge } from './NewBadge';
import { LazyClientBulkActions } from './bulk/LazyClientBulkActions';

const fullName = (client: ClientRecord) => [client.first_name, client.last_name].filter((part) => part && part.trim()).join(' ');

/**
 * The client list on a phone (under the `sm` breakpoint): one card per client with the table's
 * columns folded into three lines, as react-admin's demo does it. The card is a link (Tab reaches
 * it, Enter opens the client); the checkbox beside it, not inside it, selects the client for the
 * same bulk actions as the table's (docs/features.md#bulk-actions).
 */
export const ClientsCardList = () => {
  const translate = useTranslate();
  const { data = [], selectedIds, onToggleItem, onSelect } = useListContext<ClientRecord>();
  const pageSelected = data.every((client) => selectedIds.includes(client.id));
  // The table's header checkbox, for a list without a header: then 'Select all N matching' appears.
  const selectPage = pageSelected ? (
    false
  ) : (
    <Button size="small" onClick={() => onSelect(data.map((client) => client.id))}>
      {translate('clients.bulk.select_page', { count: data.length })}
    </Button>
  );
  return (
    <>
      {/* Only while clients are selected: collapsed, its buttons would still be in the Tab order. */}
      {selectedIds.length > 0 && (
        // In the flow and wrapping, not the table's one-line overlay: at 390 px its buttons ran off the screen.
        <Box
          sx={{
            '&& .RaBulkActionsToolbar-toolbar': { position: 'static', transform: 'none', height: 'auto', minHeight: 0, flexWrap: 'wrap', py: 0.5, px: 1 },
            '&& .RaBulkActionsToolbar-title': { flexWrap: 'wrap' },
            '&& .RaBulkActionsToolbar-topToolbar': { flexWrap: 'wrap', justifyContent: 'flex-start', p: 0 },
          }}
        >
          <BulkActionsToolbar selectAllButton={selectPage}>
            <LazyClientBulkActions />
          </BulkActionsToolbar>
        </Box>
      )}
      <List disablePadding>
        {data.map((client) => {
          const name = fullName(client) || translate('client.unknown');
          return (
            <ListItem
              key={client.id}
              disablePadding
              divider
              secondaryAction={
                <Checkbox
                  edge="end"
                  checked={selectedIds.includes(client.id)}
                  onChange={() => onToggleItem(client.id)}
                  slotProps={{ input: { 'aria-label': translate('clients.bulk.select_one', { name }) } }}
                />
              }
            >
              <ListItemButton
                component={RouterLink}
                to={clientPath(client._id)}
                sx={{ pr: 7, '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: '-2px' } }}
              >
                <ListItemText
                  primary={
                    <>
                      {name} <NewBadge firstLogin={client.first_login} />
                    </>
                  }
                  secondary={
                    <>
                      <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                        {client.email_address}
                      </Box>
                      <Box component="span" sx={{ display: 'block' }}>
                        {[client.name, client.client_status].filter(Boolean).join(' · ')}
                      </Box>
                    </>
                  }
                />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
    </>
  );
};
