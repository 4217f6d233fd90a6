import { TablePagination, Toolbar } from '@mui/material';
import type { TablePaginationActionsProps } from '@mui/material/TablePaginationActions';
import { PaginationActions, useListContext, useTranslate } from 'react-admin';
import { MAX_PER_PAGE } from '../../contract/clientRules';
import type { ClientListMeta } from './clientsData';

const ROWS_PER_PAGE = [10, 25, 50, 100, 250, MAX_PER_PAGE];
const number = (value: number) => value.toLocaleString('en-US');

/** react-admin's numbered page buttons inside MUI's TablePagination. */
const NumberedPages = ({ page, rowsPerPage, count, onPageChange }: TablePaginationActionsProps) => (
  <PaginationActions page={page} rowsPerPage={rowsPerPage} count={count} onPageChange={(_event, next) => onPageChange(null, next)} />
);

/**
 * react-admin's pagination with grouped numbers ('1-25 of 2,000'). When the server estimated the
 * total (lists over 10,000 clients) the range says 'about' and only previous/next are offered:
 * there is no exact last page to jump to, and stepping page by page follows the server's cursors.
 */
export const ClientListPagination = () => {
  const translate = useTranslate();
  const { meta, isPending, page, perPage, total, setPage, setPerPage } = useListContext();
  if (isPending) return <Toolbar variant="dense" />;
  if (!total) return null;
  const estimated = (meta as ClientListMeta | undefined)?.total_is_estimate === true;
  return (
    <TablePagination
      component="span"
      count={total}
      page={page - 1}
      rowsPerPage={perPage}
      rowsPerPageOptions={ROWS_PER_PAGE}
      onPageChange={(_event, next) => setPage(next + 1)}
      onRowsPerPageChange={(event) => setPerPage(Number(event.target.value))}
      // react-admin's numbered page buttons while the total is exact; MUI's previous/next otherwise.
      ActionsComponent={estimated ? undefined : NumberedPages}
      labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
      labelDisplayedRows={({ from, to, count }) =>
        estimated
          ? translate('clients.range_estimate', { from: number(from), to: number(to), total: number(count) })
          : translate('ra.navigation.page_range_info', { offsetBegin: number(from), offsetEnd: number(to), total: number(count) })
      }
      getItemAriaLabel={(type) => translate(`ra.navigation.${type}`)}
    />
  );
};
