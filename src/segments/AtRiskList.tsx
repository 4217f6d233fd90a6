import { useState } from 'react';
import { Box, Button, CircularProgress, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { AT_RISK_DEFAULT_PER_PAGE, AT_RISK_DEPTH } from '@contract/segmentRules';
import { LoadError } from '../common/LoadError';
import { PageHeader } from '../layout/PageHeader';
import { useCan } from '../layout/useCan';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { BroadcastButton } from '../broadcasts';
import { AtRiskRow } from './AtRiskRow';

const PER_PAGE = AT_RISK_DEFAULT_PER_PAGE;

/**
 * Clients → At risk (docs/features.md#at-risk): most valuable first, each with the last class or
 * stream, the last contact, a one-tap push where one reaches the client, and the follow-ups (log a
 * contact, snooze); 'Broadcast' reaches the whole list.
 */
const AtRiskList = () => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`segments.at_risk.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const canPush = useCan('clients', 'push');
  const canFollowUp = useCan('clients', 'notes');
  const [page, setPage] = useState(1);
  const query = useQuery({ queryKey: ['at-risk', page], queryFn: () => dataProvider.getAtRisk(page, PER_PAGE), placeholderData: keepPreviousData });
  const data = query.data;
  const first = (page - 1) * PER_PAGE;
  // The server pages through the list's first AT_RISK_DEPTH clients; the rest are reached by Broadcast.
  const atDepth = page * PER_PAGE >= AT_RISK_DEPTH;
  return (
    <>
      <PageHeader
        title={t('title')}
        actions={
          data && data.total > 0 ? <BroadcastButton target={{ filter: data.filter }} recipients={data.total} estimate={data.total_is_estimate} /> : undefined
        }
      />
      {data && <Typography sx={{ mb: 2 }}>{t('explain', { active: data.active_days, quiet: data.quiet_days })}</Typography>}
      {query.error ? <LoadError error={query.error} /> : null}
      {!data && !query.error && <CircularProgress aria-label={translate('clients.loading')} />}
      {data && data.clients.length === 0 && <Typography color="text.secondary">{t('empty')}</Typography>}
      {data && data.clients.length > 0 && (
        <Paper sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label={t('title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('columns.client')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('columns.level')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('columns.last_active')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('columns.last_contacted')}</TableCell>
                {canPush && <TableCell>{t('columns.push')}</TableCell>}
                {canFollowUp && <TableCell>{t('columns.follow_up')}</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.clients.map((client) => (
                <AtRiskRow key={client._id} client={client} canPush={canPush} canFollowUp={canFollowUp} />
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      {data && data.total > PER_PAGE && (
        <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', justifyContent: 'flex-end', flexWrap: 'wrap', py: 1 }}>
          {atDepth && <Typography variant="body2">{t('depth', { depth: AT_RISK_DEPTH.toLocaleString() })}</Typography>}
          <Typography variant="body2">
            {t(data.total_is_estimate ? 'range_estimate' : 'range', { from: first + 1, to: first + data.clients.length, total: data.total.toLocaleString() })}
          </Typography>
          <Button onClick={() => setPage(page - 1)} disabled={page === 1}>
            {translate('ra.navigation.previous')}
          </Button>
          <Button onClick={() => setPage(page + 1)} disabled={first + data.clients.length >= data.total || atDepth}>
            {translate('ra.navigation.next')}
          </Button>
        </Stack>
      )}
      <Box sx={{ height: 16 }} />
    </>
  );
};

export default AtRiskList;
