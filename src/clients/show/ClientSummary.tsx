import { Box, Button, Paper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { logoutUrl } from '../../providers/config';
import { OverrideActions } from '../actions/OverrideActions';
import type { ClientRecord } from '../clientsData';
import { dateTime, mindBodyIdLabel, orUnknown } from '../../common/format';

/** The spec's summary box: the client's names, ids and level; the admin override note; Log Out. */
export const ClientSummary = ({ client, canOverride = false }: { client: ClientRecord; canOverride?: boolean }) => {
  const translate = useTranslate();
  const unknown = translate('client.unknown');
  const fields: [string, string][] = [
    ['first_name', orUnknown(client.first_name, unknown)],
    ['last_name', orUnknown(client.last_name, unknown)],
    ['mb_client_id', mindBodyIdLabel(client.mb_client_id, translate('client.not_available'))],
    ['email', orUnknown(client.email_address, unknown)],
    ['vod_access_level', orUnknown(client.name, unknown)],
  ];
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} aria-label={translate('client.title')}>
      {/* minmax(0, …): a long e-mail wraps inside the box instead of widening the page. */}
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: { xs: 2, sm: 3 }, rowGap: 1, m: 0 }}>
        {fields.map(([key, value]) => (
          <Box key={key} sx={{ display: 'contents' }}>
            <Typography component="dt" fontWeight="bold">
              {translate(`client.fields.${key}`)}
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }} data-field={key}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {client.admin_updated_expiration && (
        <Typography color="error" sx={{ mt: 2 }} role="note">
          {translate('client.override_note', { date: dateTime(client.admin_updated_expiration) })}
        </Typography>
      )}
      {canOverride && <OverrideActions client={client} />}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
        {/* A full page navigation: the server ends the session and shows its login page. */}
        <Button variant="outlined" href={logoutUrl()}>
          {translate('client.actions.logout')}
        </Button>
      </Box>
    </Paper>
  );
};
