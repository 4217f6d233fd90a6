import { Box, IconButton, TablePagination, Toolbar, useMediaQuery, type Theme } from '@mui/material';
import type { TablePaginationActionsProps } from '@mui/material/TablePaginationActions';
import FirstPageIcon from '@mui/icons-material/FirstPage';
import LastPageIcon from '@mui/icons-material/LastPage';
import NavigateBeforeIcon from '@mui/icons-material/NavigateBefore';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import { PaginationActions, useListContext, useTranslate } from 'react-admin';
import { MAX_PER_PAGE } from '@contract/clientRules';
import type { ClientListMeta } from './clientListData';
import { useListEnd } from './listEnd';
import { pagedByNumber } from '../common/listPaging';

const ROWS_PER_PAGE = [10, 25, 50, 100, 250, MAX_PER_PAGE];
const number = (value: number) => value.toLocaleString('en-US');

/** react-admin's numbered page buttons inside MUI's TablePagination. */
const NumberedPages = ({ page, rowsPerPage, count, onPageChange }: TablePaginationActionsProps) => (
  <PaginationActions page={page} rowsPerPage={rowsPerPage} count={count} onPageChange={(_event, next) => onPageChange(null, next)} />
);

/** First, previous, next and last: every step a cursor or the first page of either order, never a deep page number. */
const CursorSteps = () => {
  const translate = useTranslate();
  const { meta, page, setPage, isFetching } = useListContext();
  const { fromEnd, setFromEnd } = useListEnd();
  const { has_next = false, has_previous = false } = (meta as ClientListMeta | undefined) ?? {};
  const steps = [
    { type: 'first', icon: <FirstPageIcon />, enabled: has_previous, go: () => (setFromEnd(undefined), setPage(1)) },
    { type: 'previous', icon: <NavigateBeforeIcon />, enabled: has_previous, go: () => (fromEnd ? setFromEnd(fromEnd + 1) : setPage(page - 1)) },
    { type: 'next', icon: <NavigateNextIcon />, enabled: has_next, go: () => (fromEnd ? setFromEnd(fromEnd - 1 || undefined) : setPage(page + 1)) },
    { type: 'last', icon: <LastPageIcon />, enabled: has_next, go: () => setFromEnd(1) },
  ];
  return (
    <Box sx={{ display: 'flex', flexShrink: 0, ml: 1 }}>
      {steps.map(({ type, icon, enabled, go }) => (
        // Not disabled while the next page loads (a focused button would lose the focus): a click then waits.
        <IconButton
          key={type}
          onClick={() => !isFetching && go()}
          disabled={!enabled}
          aria-label={translate(`ra.navigation.${type}`)}
          title={translate(`ra.navigation.${type}`)}
        >
          {icon}
        </IconButton>
      ))}
    </Box>
  );
};

/**
 * react-admin's pagination with grouped numbers ('1-25 of 2,000'). A list the server pages by
 * number (an exact total of at most NUMBERED_LIST_MAX) gets numbered buttons; a larger one
 * first/previous/next/last along the server's cursors, its range counted
 * from whichever end it was read from, 'about' when the total is the server's estimate.
 */
export const ClientListPagination = () => {
  const translate = useTranslate();
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const { meta, isPending, page, perPage, total, data, setPage, setPerPage } = useListContext();
  const { fromEnd } = useListEnd();
  if (isPending) return <Toolbar variant="dense" />;
  if (!total) return null;
  const listMeta = (meta as ClientListMeta | undefined) ?? ({} as Partial<ClientListMeta>);
  const estimated = listMeta.total_is_estimate === true;
  const numbered = listMeta.paged_in_browser === true || pagedByNumber({ total, total_is_estimate: estimated });
  const shown = data?.length ?? 0;
  const label = ({ from, to, count }: { from: number; to: number; count: number }) => {
    if (fromEnd) {
      const fromTheEnd = (fromEnd - 1) * perPage;
      const values = { from: number(fromTheEnd + 1), to: number(fromTheEnd + shown), total: number(count) };
      return translate(estimated ? 'clients.range_from_end_estimate' : 'clients.range_from_end', values);
    }
    const shownTo = numbered ? to : from + shown - 1;
    return estimated
      ? translate('clients.range_estimate', { from: number(from), to: number(shownTo), total: number(count) })
      : translate('ra.navigation.page_range_info', { offsetBegin: number(from), offsetEnd: number(shownTo), total: number(count) });
  };
  return (
    <TablePagination
      component="span"
      count={total}
      // MUI checks the page against the count; a page read from the end has no number of its own.
      page={fromEnd ? 0 : Math.min(page - 1, Math.max(0, Math.ceil(total / perPage) - 1))}
      rowsPerPage={perPage}
      rowsPerPageOptions={isSmall ? [] : ROWS_PER_PAGE}
      onPageChange={(_event, next) => setPage(next + 1)}
      onRowsPerPageChange={(event) => setPerPage(Number(event.target.value))}
      ActionsComponent={numbered ? NumberedPages : CursorSteps}
      labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
      labelDisplayedRows={label}
      getItemAriaLabel={(type) => translate(`ra.navigation.${type}`)}
      sx={isSmall ? { '.MuiTablePagination-toolbar': { px: 1 }, '.MuiTablePagination-spacer': { display: 'none' } } : undefined}
    />
  );
};
