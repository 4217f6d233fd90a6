import type { ReactNode } from 'react';
import { Alert, Box, Button, CircularProgress, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useTranslate } from 'react-admin';
import type { UseQueryResult } from '@tanstack/react-query';

/**
 * A section whose data did not load says so, with the reason and a Retry: its empty text would
 * tell staff the client has no contracts when the call only failed.
 */
export const SectionError = ({ title, error, onRetry }: { title: string; error: unknown; onRetry(): void }) => {
  const translate = useTranslate();
  const reason = error instanceof Error && error.message ? error.message : translate('ra.message.error');
  return (
    <Alert
      severity="error"
      sx={{ my: 1, '& .MuiAlert-message': { overflowWrap: 'anywhere' } }}
      action={
        <Button
          color="inherit"
          size="small"
          startIcon={<RefreshIcon />}
          onClick={onRetry}
          aria-label={translate('client.sections.retry_label', { section: title })}
        >
          {translate('client.sections.retry')}
        </Button>
      }
    >
      {translate('client.sections.load_failed', { section: title, reason })}
    </Alert>
  );
};

export const SectionLoading = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
      <CircularProgress size={24} aria-label={translate('client.loading')} />
    </Box>
  );
};

/** A section's loading, error and empty states around its table. */
export function SectionState<T>({
  title,
  query,
  empty,
  children,
}: {
  title: string;
  query: UseQueryResult<T[]>;
  empty: ReactNode;
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isPending) return <SectionLoading />;
  if (query.isError) return <SectionError title={title} error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data.length) return <>{empty}</>;
  return <>{children(query.data)}</>;
}

export const EmptyText = ({ children }: { children: ReactNode }) => (
  <Typography color="text.secondary" sx={{ py: 1 }}>
    {children}
  </Typography>
);
