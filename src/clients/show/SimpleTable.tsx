import type { ReactNode } from 'react';
import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';

/** A small read-only table: header labels and one row of cells per item. */
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
    <Table size="small" stickyHeader aria-label={label}>
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
              <TableCell key={cellIndex}>{cell}</TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
