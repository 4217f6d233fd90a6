import type { ReactNode } from 'react';
import { useMediaQuery, type Theme } from '@mui/material';
import { ExportButton, FilterButton, List, SortButton, TopToolbar, useListContext, useTranslate } from 'react-admin';
import { EXACT_TOTAL_CAP } from '@contract/clientRules';
import type { ClientFilter } from '@contract/clientFilterRules';
import { PageHeader } from '../layout/PageHeader';
import { CLIENT_LIST_DEFAULTS, clientLists, type ClientListDefinition } from './clientLists';
import type { ClientListQueryMeta } from './clientListData';
import { clientListResource } from './clientsData';
import { clientsExporter } from './clientsExporter';
import { ClientListPagination } from './ClientListPagination';
import { useClientListFilters } from './ClientListFilters';
import { ClientsTable } from './ClientsTable';
import { LeaveEndOnNewQuery, ListEndProvider, useListEndState } from './listEnd';
import { LoadError } from './LoadError';
import { OutcomeFilterNote } from './OutcomeFilterNote';
import { RevenueFilterChip } from './RevenueFilterChip';
import { BulkScope } from './bulk/bulkScope';
import { LIST_RULES } from '@contract/clientFilterRules';
import { SaveAsSegmentButton } from '../segments/SaveAsSegmentButton';

/** An export gathers at most this many rows of the current list (filter and sort included). */
export const EXPORT_MAX_ROWS = EXACT_TOTAL_CAP;

const SORTABLE = ['first_name', 'last_name', 'email_address', 'vod_access_level', 'client_status', 'first_login'];

const ClientListActions = ({ isSmall, saveFrom }: { isSmall: boolean; saveFrom?: ClientListDefinition['id'] }) => (
  <TopToolbar>
    {saveFrom && <SaveAsSegmentButton listId={saveFrom} />}
    {/* The phone's card list has no column headers to sort by, nor room for every filter at once. */}
    {isSmall && <SortButton fields={SORTABLE} />}
    {isSmall && <FilterButton />}
    <ExportButton maxResults={EXPORT_MAX_ROWS} exporter={clientsExporter} />
  </TopToolbar>
);

const ListLoadError = () => <LoadError error={useListContext().error} />;

/** A saved segment opened as a list (docs/features.md#segments): the all-clients list with its filter fixed. */
export interface ListSegment {
  id: number;
  name: string;
  filter: ClientFilter;
}

/** One of the four client lists of spec §2: server-side paging, sorting and filters, kept in the URL. */
const ClientListPage = ({ listId, segment, headerActions }: { listId: ClientListDefinition['id']; segment?: ListSegment; headerActions?: ReactNode }) => {
  const translate = useTranslate();
  const list = clientLists.find((candidate) => candidate.id === listId);
  if (!list) throw new Error(`Unknown client list ${listId}`);
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const filters = useClientListFilters(list.id, isSmall);
  const end = useListEndState();
  const meta: ClientListQueryMeta = end.fromEnd ? { fromEnd: end.fromEnd } : {};
  return (
    <>
      <PageHeader title={segment ? segment.name : translate(list.titleKey)} actions={headerActions} />
      <BulkScope.Provider value={{ ...LIST_RULES[list.id], ...segment?.filter }}>
        <ListEndProvider value={end}>
          <List
            resource={clientListResource(list)}
            // Each list and segment keeps its own page, sort and filter.
            storeKey={segment ? `segments-${segment.id}` : clientListResource(list)}
            filter={segment?.filter}
            title={false}
            filters={filters}
            actions={<ClientListActions isSmall={isSmall} saveFrom={segment ? undefined : list.id} />}
            sort={CLIENT_LIST_DEFAULTS.sort}
            perPage={CLIENT_LIST_DEFAULTS.perPage}
            pagination={<ClientListPagination />}
            queryOptions={{ meta }}
            empty={false}
            error={<ListLoadError />}
          >
            <LeaveEndOnNewQuery />
            <OutcomeFilterNote />
            <RevenueFilterChip rules={{ ...LIST_RULES[list.id], ...segment?.filter }} />
            <ClientsTable />
          </List>
        </ListEndProvider>
      </BulkScope.Provider>
    </>
  );
};

export default ClientListPage;
