import { forwardRef, type KeyboardEvent } from 'react';
import { Box, CircularProgress, Typography, useMediaQuery, type Theme } from '@mui/material';
import {
  DataTable,
  DataTableBody,
  DataTableRow,
  useListContext,
  useNavigate,
  useRecordContext,
  useTranslate,
  type DataTableBodyProps,
  type DataTableRowProps,
} from 'react-admin';
import { clientPath } from './clientLists';
import type { ClientRecord } from './clientsData';
import { ClientsCardList } from './ClientsCardList';
import { NewBadge } from './NewBadge';
import { LazyClientBulkActions } from './bulk/LazyClientBulkActions';

/**
 * react-admin 5.15's row checkbox gives its aria-label to MUI's wrapper span, where it names nothing
 * (axe: aria-prohibited-attr, and an unlabelled checkbox); hand it to the input itself. React does
 * not put it back: the label never changes, so it is never re-rendered.
 */
const labelRowCheckbox = (row: HTMLTableRowElement | null) => {
  const wrapper = row?.querySelector<HTMLElement>('.select-item[aria-label]');
  const input = wrapper?.querySelector('input');
  if (!wrapper || !input) return;
  input.setAttribute('aria-label', wrapper.getAttribute('aria-label')!);
  wrapper.removeAttribute('aria-label');
};

/** A row that Tab reaches (with a visible outline) and Enter opens, as a click does. */
const KeyboardRow = forwardRef<HTMLTableRowElement, DataTableRowProps>(function KeyboardRow(props, ref) {
  const record = useRecordContext<ClientRecord>();
  const navigate = useNavigate();
  const open = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.key !== 'Enter' || event.target !== event.currentTarget || !record) return;
    event.preventDefault();
    navigate(clientPath(record._id));
  };
  const setRow = (row: HTMLTableRowElement | null) => {
    labelRowCheckbox(row);
    if (typeof ref === 'function') ref(row);
    else if (ref) ref.current = row;
  };
  return (
    <DataTableRow
      ref={setRow}
      {...props}
      tabIndex={0}
      onKeyDown={open}
      sx={[
        { '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: '-2px' } },
        ...(Array.isArray(props.sx) ? props.sx : [props.sx]),
      ]}
    />
  );
});

const KeyboardBody = forwardRef<HTMLTableSectionElement, DataTableBodyProps>(function KeyboardBody(props, ref) {
  return <DataTableBody ref={ref} {...props} row={KeyboardRow} />;
});

/**
 * The spec's 'Client list': a spinner while loading, 'No Clients to Show' when empty, a row opens the
 * client (click, or Enter on a focused row). Under the `sm` breakpoint a compact card list.
 */
export const ClientsTable = () => {
  const translate = useTranslate();
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
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
  if (isSmall) return <ClientsCardList />;
  return (
    <DataTable<ClientRecord> rowClick={(_id, _resource, record) => clientPath(record._id)} bulkActionButtons={<LazyClientBulkActions />} body={KeyboardBody}>
      <DataTable.Col source="first_login" label={translate('clients.columns.new')} render={(record) => <NewBadge firstLogin={record.first_login} />} />
      <DataTable.Col source="first_name" label={translate('clients.columns.first_name')} />
      <DataTable.Col source="last_name" label={translate('clients.columns.last_name')} />
      <DataTable.Col source="email_address" label={translate('clients.columns.email')} />
      <DataTable.Col source="vod_access_level" label={translate('clients.columns.vod_access_level')} render={(record) => record.name ?? ''} />
      <DataTable.Col source="client_status" label={translate('clients.columns.status')} />
    </DataTable>
  );
};
