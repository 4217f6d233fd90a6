import type { ReactNode } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { UseQueryResult } from '@tanstack/react-query';
import { LoadError } from '../LoadError';

/** A section's loading, error and empty states around its table. */
export function SectionState<T>({ query, empty, children }: { query: UseQueryResult<T[]>; empty: ReactNode; children: (rows: T[]) => ReactNode }) {
  const translate = useTranslate();
  if (query.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
        <CircularProgress size={24} aria-label={translate('client.loading')} />
      </Box>
    );
  }
  if (query.isError) return <LoadError error={query.error} />;
  if (!query.data.length) return <>{empty}</>;
  return <>{children(query.data)}</>;
}

export const EmptyText = ({ children }: { children: ReactNode }) => (
  <Typography color="text.secondary" sx={{ py: 1 }}>
    {children}
  </Typography>
);
