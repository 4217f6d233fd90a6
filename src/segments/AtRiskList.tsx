import { useState } from 'react';
import { Box, Button, CircularProgress, Link, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { AT_RISK_DEFAULT_PER_PAGE, AT_RISK_DEPTH } from '@contract/segmentRules';
import type { AtRiskClient } from '@contract/segments';
import { PushNotificationButton } from '../clients/actions/PushNotificationButton';
import { clientPath } from '../clients/clientLists';
import { dateOnly } from '../clients/format';
import { LoadError } from '../clients/LoadError';
import { PageHeader } from '../layout/PageHeader';
import { useCan } from '../layout/useCan';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { BroadcastButton } from '../broadcasts';

const PER_PAGE = AT_RISK_DEFAULT_PER_PAGE;
const nameOf = (client: AtRiskClient) => [client.first_name, client.last_name].filter(Boolean).join(' ') || client.email_address || String(client._id);

/**
 * Clients → At risk (docs/features.md#at-risk): most valuable first, each with the last class or
 * stream, the last contact and a one-tap push; 'Broadcast' reaches the whole list.
 */
const AtRiskList = () => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`segments.at_risk.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const canPush = useCan('clients', 'push');
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
        actions={data && data.total > 0 ? <BroadcastButton target={{ filter: data.filter }} recipients={data.total} /> : undefined}
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
                <TableCell>{t('columns.last_contacted')}</TableCell>
                {canPush && <TableCell>{t('columns.push')}</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.clients.map((client) => (
                <TableRow key={client._id}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    <Link component={RouterLink} to={clientPath(client._id)}>
                      {nameOf(client)}
                    </Link>
                    {client.active_contract && (
                      <Typography variant="caption" sx={{ display: 'block' }}>
                        {t('contract')}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{client.name ?? ''}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{dateOnly(client.last_active_at)}</TableCell>
                  <TableCell>{client.last_contacted_at ? dateOnly(client.last_contacted_at) : t('never')}</TableCell>
                  {canPush && (
                    <TableCell>
                      <PushNotificationButton client={{ ...client, id: client._id }} compact />
                    </TableCell>
                  )}
                </TableRow>
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
