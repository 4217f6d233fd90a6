import { ExportButton, List, SearchInput, TopToolbar, useListContext, useTranslate } from 'react-admin';
import { EXACT_TOTAL_CAP } from '../../contract/clientRules';
import { PageHeader } from '../layout/PageHeader';
import { clientLists, type ClientListDefinition } from './clientLists';
import { clientListResource } from './clientsData';
import { clientsExporter } from './clientsExporter';
import { ClientListPagination } from './ClientListPagination';
import { ClientsTable } from './ClientsTable';
import { LoadError } from './LoadError';

/** An export gathers at most this many rows of the current list (filter and sort included). */
export const EXPORT_MAX_ROWS = EXACT_TOTAL_CAP;

const ClientListActions = () => (
  <TopToolbar>
    <ExportButton maxResults={EXPORT_MAX_ROWS} exporter={clientsExporter} />
  </TopToolbar>
);

const ListLoadError = () => <LoadError error={useListContext().error} />;

/** One of the four client lists of spec §2: server-side paging, sorting and quick filter. */
const ClientListPage = ({ listId }: { listId: ClientListDefinition['id'] }) => {
  const translate = useTranslate();
  const list = clientLists.find((candidate) => candidate.id === listId);
  if (!list) throw new Error(`Unknown client list ${listId}`);
  const quickFilter = translate('clients.quick_filter');
  const filters = [<SearchInput key="q" source="q" alwaysOn placeholder={quickFilter} inputProps={{ 'aria-label': quickFilter }} />];
  return (
    <>
      <PageHeader title={translate(list.titleKey)} />
      <List
        resource={clientListResource(list)}
        // Each list keeps its own page, sort and filter.
        storeKey={clientListResource(list)}
        title={false}
        filters={filters}
        actions={<ClientListActions />}
        sort={{ field: 'id', order: 'ASC' }}
        perPage={25}
        pagination={<ClientListPagination />}
        empty={false}
        error={<ListLoadError />}
      >
        <ClientsTable />
      </List>
    </>
  );
};

export default ClientListPage;
