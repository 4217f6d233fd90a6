import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { Card, useMediaQuery, type Theme } from '@mui/material';
import { styled } from '@mui/material/styles';
import { ListBase, Loading, Offline, useListContext, useTranslate } from 'react-admin';
import type { ClientFilter } from '@contract/clientFilterRules';
import { PageHeader } from '../layout/PageHeader';
import { lazyChunk } from '../common/chunks';
import { CLIENT_LIST_DEFAULTS, clientLists, type ClientListDefinition } from './clientLists';
import type { ClientListQueryMeta } from './clientListData';
import { clientListResource } from './clientsData';
import { ClientsTable } from './ClientsTable';
import { LeaveEndOnNewQuery, ListEndProvider, useListEndState } from './listEnd';
import { LoadError } from '../common/LoadError';
import { OutcomeFilterNote } from './OutcomeFilterNote';
import { RevenueFilterChip } from './RevenueFilterChip';
import { BulkScope } from './bulk/bulkScope';
import { LIST_RULES } from '@contract/clientFilterRules';

// Drawn just after the first rows (see ClientListToolbar), from chunks of their own.
const ClientListToolbar = lazyChunk(() => import('./ClientListToolbar'));
const ClientListPagination = lazyChunk(() => import('./ClientListPagination').then(({ ClientListPagination }) => ({ default: ClientListPagination })));

/** react-admin's list page (its <List>'s view), with the same class names and styles. */
const LIST = { main: 'RaList-main', content: 'RaList-content', actions: 'RaList-actions' };
const ListRoot = styled('div', { name: 'RaList', overridesResolver: (_props, styles) => styles.root })(({ theme }) => ({
  display: 'flex',
  [`& .${LIST.main}`]: { flex: '1 1 auto', display: 'flex', flexDirection: 'column' },
  [`& .${LIST.content}`]: { position: 'relative', [theme.breakpoints.down('sm')]: { boxShadow: 'none' }, overflow: 'inherit' },
}));

/**
 * Height of the filter bar (react-admin's toolbar: two rows of filter fields and the actions at
 * 1440 px, the search and the action buttons at 390 px), kept for it until it is drawn, so the rows
 * do not move when it arrives (at other widths its rows of fields may differ a little).
 */
const TOOLBAR_MIN_HEIGHT = { xs: 112, sm: 124 };

/**
 * Renders its children once the list's first rows (or its error) are drawn: what they do not need
 * waits for them. Fetched any earlier, it would share the line with the list's own code and answer.
 */
const AfterFirstRows = ({ children, placeholder = null }: { children: ReactNode; placeholder?: ReactNode }) => {
  const { isPending, error } = useListContext();
  const drawn = !isPending || Boolean(error);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!drawn) return undefined;
    // After the browser has painted them: React may run this before the rows reach the screen.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setShown(true))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [drawn]);
  return shown ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder;
};

const ListLoadError = () => <LoadError error={useListContext().error} />;

/**
 * What react-admin's <List> draws (its ListView): the toolbar, the rows in a card, the pagination.
 * The rows come first; the toolbar (filters, actions) and the pagination are fetched after them.
 */
const ClientListView = ({
  listId,
  isSmall,
  saveFrom,
  children,
}: {
  listId: ClientListDefinition['id'];
  isSmall: boolean;
  saveFrom?: ClientListDefinition['id'];
  children: ReactNode;
}) => {
  const { error, isPaused, isPending, isPlaceholderData } = useListContext();
  return (
    <ListRoot className="list-page">
      <div className={LIST.main}>
        <AfterFirstRows placeholder={<ToolbarSpace className={LIST.actions} />}>
          <ClientListToolbar listId={listId} isSmall={isSmall} saveFrom={saveFrom} />
        </AfterFirstRows>
        <Card className={LIST.content}>{isPaused && (isPending || isPlaceholderData) ? <Offline /> : error ? <ListLoadError /> : children}</Card>
        <AfterFirstRows>
          <ClientListPagination />
        </AfterFirstRows>
      </div>
    </ListRoot>
  );
};

const ToolbarSpace = styled('div')(({ theme }) => ({
  minHeight: TOOLBAR_MIN_HEIGHT.sm,
  [theme.breakpoints.down('sm')]: { minHeight: TOOLBAR_MIN_HEIGHT.xs },
}));

/** A saved segment opened as a list (docs/features.md#segments): the all-clients list with its filter fixed. */
export interface ListSegment {
  id: number;
  name: string;
  filter: ClientFilter;
}

/** One of the four client lists of the spec: server-side paging, sorting and filters, kept in the URL. */
const ClientListPage = ({ listId, segment, headerActions }: { listId: ClientListDefinition['id']; segment?: ListSegment; headerActions?: ReactNode }) => {
  const translate = useTranslate();
  const list = clientLists.find((candidate) => candidate.id === listId);
  if (!list) throw new Error(`Unknown client list ${listId}`);
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const end = useListEndState();
  const meta: ClientListQueryMeta = end.fromEnd ? { fromEnd: end.fromEnd } : {};
  return (
    <>
      <PageHeader title={segment ? segment.name : translate(list.titleKey)} actions={headerActions} />
      <BulkScope.Provider value={{ ...LIST_RULES[list.id], ...segment?.filter }}>
        <ListEndProvider value={end}>
          <ListBase
            resource={clientListResource(list)}
            // Each list and segment keeps its own page, sort and filter.
            storeKey={segment ? `segments-${segment.id}` : clientListResource(list)}
            filter={segment?.filter}
            sort={CLIENT_LIST_DEFAULTS.sort}
            perPage={CLIENT_LIST_DEFAULTS.perPage}
            queryOptions={{ meta }}
            // As react-admin's <List>: the offline notice is shown in the page (ClientListView).
            authLoading={<Loading />}
            offline={false}
          >
            <ClientListView listId={list.id} isSmall={isSmall} saveFrom={segment ? undefined : list.id}>
              <LeaveEndOnNewQuery />
              <OutcomeFilterNote />
              <RevenueFilterChip rules={{ ...LIST_RULES[list.id], ...segment?.filter }} />
              <ClientsTable />
            </ClientListView>
          </ListBase>
        </ListEndProvider>
      </BulkScope.Provider>
    </>
  );
};

export default ClientListPage;
