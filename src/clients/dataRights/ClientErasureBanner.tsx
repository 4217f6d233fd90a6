import { Alert, AlertTitle, Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ClientRecord } from '../clientsData';
import { dateTime } from '../../common/format';
import { useErasure } from './useErasure';

/** An erased client's page says so first: when, by whom, why, and what the outside services answered. */
export const ClientErasureBanner = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`data_rights.erased.${key}`, options);
  const { data: erasure } = useErasure(client._id);
  if (!erasure) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2, '& .MuiAlert-message': { overflowWrap: 'anywhere' } }}>
      <AlertTitle component="h2">{t('title', { id: client._id })}</AlertTitle>
      {t('body', { date: dateTime(erasure.erased_at), who: erasure.staff_email ?? t('someone'), reason: erasure.reason })}
      <Box component="ul" sx={{ m: 0, mt: 1, pl: 2 }} aria-label={t('outside')}>
        {erasure.outside.map((task, index) => (
          <Typography component="li" variant="body2" key={`${task.service}-${index}`}>
            {t(`services.${task.service}`)}: {t(`states.${task.state}`, { error: task.last_error ?? '' })}
          </Typography>
        ))}
      </Box>
    </Alert>
  );
};
