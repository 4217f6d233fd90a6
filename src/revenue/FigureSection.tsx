import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Card, CardContent, Link, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import { downloadCSV, useTranslate } from 'react-admin';
import { toCsv } from './revenueFormat';

/** A table cell: its text, the value the CSV gets, and the client list behind it when it is a figure of clients. */
export interface FigureCell {
  text: string;
  csv: string | number;
  to?: string;
  /** A cohort cell's share, 0-1: its shade. */
  shade?: number;
}

interface FigureSectionProps {
  title: string;
  /** The CSV file's name. */
  file: string;
  headers: string[];
  rows: FigureCell[][];
  chart?: ReactNode;
  note?: string;
}

/** One figure of the Revenue area: its chart, the same numbers as a table (each opening its clients), a CSV export. */
export function FigureSection({ title, file, headers, rows, chart, note }: FigureSectionProps) {
  const translate = useTranslate();
  const exportCsv = () =>
    downloadCSV(
      toCsv(
        headers,
        rows.map((row) => row.map((cell) => cell.csv)),
      ),
      file,
    );
  return (
    <Card variant="outlined" component="section" aria-label={title}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', mb: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          <Button size="small" startIcon={<DownloadIcon />} onClick={exportCsv} aria-label={translate('revenue.export_named', { name: title })}>
            {translate('revenue.export')}
          </Button>
        </Box>
        {note && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {note}
          </Typography>
        )}
        {chart}
        <TableContainer sx={{ maxHeight: 360, mt: 1 }} tabIndex={0} role="region" aria-label={translate('revenue.table_of', { name: title })}>
          <Table size="small" stickyHeader>
            <TableHead>
              <TableRow>
                {headers.map((header, i) => (
                  <TableCell key={header} align={i === 0 ? 'left' : 'right'} sx={{ whiteSpace: 'nowrap' }}>
                    {header}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row, r) => (
                <TableRow key={r}>
                  {row.map((cell, i) => (
                    <TableCell
                      key={i}
                      align={i === 0 ? 'left' : 'right'}
                      sx={{
                        whiteSpace: 'nowrap',
                        ...(cell.shade !== undefined && {
                          bgcolor: (theme) => `color-mix(in srgb, ${theme.palette.primary.main} ${Math.round(cell.shade! * 50)}%, transparent)`,
                        }),
                      }}
                    >
                      {cell.to ? (
                        <Link component={RouterLink} to={cell.to} color="inherit" underline="always">
                          {cell.text}
                        </Link>
                      ) : (
                        cell.text
                      )}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </CardContent>
    </Card>
  );
}
