import type { ReactNode } from 'react';
import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import type { Theme } from '@mui/material/styles';

// On a phone the columns do not fit: each row becomes a card of "label, value" lines.
const stackOnPhones = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    '& thead': { display: 'none' },
    '& tbody, & tr, & td': { display: 'block' },
    '& tbody tr': { py: 1, borderBottom: `1px solid ${theme.palette.divider}` },
    '& tbody td': { border: 0, px: 0, py: 0.25, overflowWrap: 'anywhere' },
    '& tbody td:empty': { display: 'none' },
    '& tbody td[data-label]::before': {
      content: 'attr(data-label)',
      display: 'block',
      ...theme.typography.caption,
      fontWeight: 600,
      color: theme.palette.text.secondary,
    },
  },
});

/** A small read-only table: header labels and one row of cells per item; a list of cards on phones. */
export function SimpleTable<T>({
  headers,
  rows,
  cells,
  rowKey,
  label,
}: {
  headers: string[];
  rows: T[];
  cells: (row: T) => ReactNode[];
  rowKey: (row: T, index: number) => string | number;
  /** The table's accessible name, when a page has several. */
  label?: string;
}) {
  return (
    <Table size="small" stickyHeader aria-label={label} sx={stackOnPhones}>
      <TableHead>
        <TableRow>
          {headers.map((header, index) => (
            <TableCell key={index}>{header}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row, index) => (
          <TableRow key={rowKey(row, index)}>
            {cells(row).map((cell, cellIndex) => (
              <TableCell key={cellIndex} data-label={headers[cellIndex]}>
                {cell}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
