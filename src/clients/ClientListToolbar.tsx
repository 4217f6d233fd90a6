import { ExportButton, FilterButton, ListClasses, ListToolbar, SortButton, TopToolbar } from 'react-admin';
import { EXACT_TOTAL_CAP } from '@contract/clientRules';
import { SaveAsSegmentButton } from '../segments/SaveAsSegmentButton';
import type { ClientListDefinition } from './clientLists';
import { clientsExporter } from './clientsExporter';
import { useClientListFilters } from './ClientListFilters';

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

/**
 * A client list's filters and actions (save as segment, sort and filter on a phone, export), as
 * react-admin's list draws them above the rows. Its own chunk: the form library behind the filters,
 * the menus and the exporter are not needed for the list's first rows, and load just after them.
 */
const ClientListToolbar = ({ listId, isSmall, saveFrom }: { listId: ClientListDefinition['id']; isSmall: boolean; saveFrom?: ClientListDefinition['id'] }) => (
  <ListToolbar
    className={ListClasses.actions}
    filters={useClientListFilters(listId, isSmall)}
    actions={<ClientListActions isSmall={isSmall} saveFrom={saveFrom} />}
  />
);

export default ClientListToolbar;
