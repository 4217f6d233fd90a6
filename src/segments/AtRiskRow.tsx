import { useState } from 'react';
import { Button, Link, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import type { AtRiskClient } from '@contract/segments';
import { PushNotificationButton } from '../clients/actions/PushNotificationButton';
import { clientPath } from '../clients/clientLists';
import { dateTime, day } from '../common/format';
import { FollowUpDialog, type FollowUp } from './FollowUpDialog';

export const atRiskName = (client: AtRiskClient) =>
  [client.first_name, client.last_name].filter(Boolean).join(' ') || client.email_address || String(client._id);

/**
 * One client of the at-risk list: who, the level, the last class or stream, the last contact, a push
 * when one can reach them (else why not), and the follow-ups (log a contact, snooze).
 */
export const AtRiskRow = ({ client, canPush, canFollowUp }: { client: AtRiskClient; canPush: boolean; canFollowUp: boolean }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`segments.at_risk.${key}`, options);
  const [followUp, setFollowUp] = useState<FollowUp | null>(null);
  const name = atRiskName(client);
  const contacted = client.last_contacted_at ? day(client.last_contacted_at) : t('never');
  return (
    <TableRow>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>
        <Link component={RouterLink} to={clientPath(client._id)}>
          {name}
        </Link>
        {client.active_contract && (
          <Typography variant="caption" sx={{ display: 'block' }}>
            {t('contract')}
          </Typography>
        )}
        {/* On a phone the last-contacted column is folded in here. */}
        <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
          {client.last_contacted_at ? t('last_contacted_short', { date: contacted }) : t('never_contacted')}
        </Typography>
      </TableCell>
      <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{client.name ?? ''}</TableCell>
      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{dateTime(client.last_active_at)}</TableCell>
      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
        {client.last_contacted_at ? <time dateTime={client.last_contacted_at}>{contacted}</time> : contacted}
      </TableCell>
      {canPush && (
        <TableCell data-reach={client.reachable ? 'reachable' : client.unreachable_reason}>
          {client.reachable ? (
            <PushNotificationButton client={{ ...client, id: client._id }} compact />
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t(`unreachable.${client.unreachable_reason ?? 'no_app'}`)}
            </Typography>
          )}
        </TableCell>
      )}
      {canFollowUp && (
        <TableCell>
          <Stack direction={{ xs: 'column', lg: 'row' }} spacing={1}>
            <Button size="small" variant="outlined" onClick={() => setFollowUp('contact')} aria-label={t('log_contact_for', { name })}>
              {t('log_contact')}
            </Button>
            <Button size="small" onClick={() => setFollowUp('snooze')} aria-label={t('snooze_for', { name })}>
              {t('snooze')}
            </Button>
          </Stack>
          {followUp && <FollowUpDialog mode={followUp} clientId={client._id} name={name} open onClose={() => setFollowUp(null)} />}
        </TableCell>
      )}
    </TableRow>
  );
};
