import { Box, Button, Paper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { logoutUrl } from '../../providers/config';
import type { ClientRecord } from '../clientsData';
import { dateTime, mindBodyIdLabel, orUnknown } from '../format';

/** Spec §2 summary box: the client's names, ids and level; the admin override note; Log Out. */
export const ClientSummary = ({ client }: { client: ClientRecord }) => {
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
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 1, m: 0 }}>
        {fields.map(([key, value]) => (
          <Box key={key} sx={{ display: 'contents' }}>
            <Typography component="dt" fontWeight="bold">
              {translate(`client.fields.${key}`)}
            </Typography>
            <Typography component="dd" sx={{ m: 0 }} data-field={key}>
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
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
        {/* A full page navigation: the server ends the session and shows its login page. */}
        <Button variant="outlined" href={logoutUrl()}>
          {translate('client.actions.logout')}
        </Button>
      </Box>
    </Paper>
  );
};
