import { useState } from 'react';
import { Alert, Box, Button, FormControlLabel, Paper, Switch, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { PageHeader } from '../layout/PageHeader';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { EmptyText, SectionError, SectionLoading } from '../common/SectionState';
import { DataRequestsTable } from './DataRequestsTable';
import { LogRequestDialog } from './LogRequestDialog';
import { RetentionCard } from './RetentionCard';

/** Access and erasure requests with their one-month due dates, and the retention settings. */
const DataRequestsPage = () => {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`data_rights.requests.${key}`, options);
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const [openOnly, setOpenOnly] = useState(false);
  const [logging, setLogging] = useState(false);
  const requests = useQuery({ queryKey: ['data-requests', openOnly], queryFn: () => dataProvider.getDataRequests({ openOnly }) });
  const handled = useMutation({
    mutationFn: (id: number) => dataProvider.markDataRequestHandled(id),
    onSuccess: () => void requests.refetch(),
    onError: (error: Error) => notify('data_rights.requests.failed', { type: 'error', messageArgs: { reason: error.message } }),
  });
  const pressing = (requests.data ?? []).filter((request) => request.standing === 'due_soon' || request.standing === 'overdue').length;
  return (
    <>
      <PageHeader
        title={t('title')}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setLogging(true)}>
            {t('log')}
          </Button>
        }
      />
      <Box sx={{ px: { xs: 1, sm: 2 }, pb: 3 }}>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('intro')}
        </Typography>
        {pressing > 0 && (
          <Alert severity={(requests.data ?? []).some((request) => request.standing === 'overdue') ? 'error' : 'warning'} sx={{ mb: 2 }}>
            {t('warning', { smart_count: pressing })}
          </Alert>
        )}
        <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
          <FormControlLabel control={<Switch checked={openOnly} onChange={(event) => setOpenOnly(event.target.checked)} />} label={t('open_only')} />
          {requests.isPending ? (
            <SectionLoading />
          ) : requests.error ? (
            <SectionError title={t('title')} error={requests.error} onRetry={() => void requests.refetch()} />
          ) : requests.data.length === 0 ? (
            <EmptyText>{t('empty')}</EmptyText>
          ) : (
            <DataRequestsTable
              requests={requests.data}
              onHandled={(id) => handled.mutate(id)}
              busyId={handled.isPending ? (handled.variables ?? null) : null}
            />
          )}
        </Paper>
        <RetentionCard />
      </Box>
      {logging && <LogRequestDialog open={logging} onClose={() => setLogging(false)} onSaved={() => void requests.refetch()} />}
    </>
  );
};

export default DataRequestsPage;
