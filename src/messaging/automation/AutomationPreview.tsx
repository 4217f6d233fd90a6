import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { isWeeklyType } from '@contract/messageTypes';
import { SimpleTable } from '../../common/SimpleTable';
import { dateTime } from '../../common/format';
import { useAutomationPreview } from './useAutomation';

/** 'Preview': how many clients the next run would message, and a few of them with their text. */
export const AutomationPreview = ({ typeId, timeZone }: { typeId: number; timeZone: string }) => {
  const translate = useTranslate();
  const [asked, setAsked] = useState(false);
  const preview = useAutomationPreview(typeId, asked);
  const t = (key: string, options?: Record<string, unknown>) => translate(`messaging.automation.preview.${key}`, options);
  const weekly = isWeeklyType(typeId);
  return (
    <Box sx={{ mt: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h3" sx={{ flexGrow: 1 }}>
          {t('title')}
        </Typography>
        <Button variant="outlined" onClick={() => (asked ? void preview.refetch() : setAsked(true))} loading={preview.isFetching}>
          {translate(asked ? 'messaging.automation.actions.refresh_preview' : 'messaging.automation.actions.preview')}
        </Button>
      </Box>
      {asked && preview.isPending && <CircularProgress size={24} aria-label={t('loading')} />}
      {asked && preview.isError && <Alert severity="error">{t('failed')}</Alert>}
      {preview.data && (
        <Box role="status" sx={{ mt: 1 }}>
          {preview.data.blocked && (
            <Alert severity="warning" sx={{ mb: 1 }}>
              {t(`blocked.${preview.data.blocked}`)}
            </Alert>
          )}
          <Typography>{t(weekly ? 'weekly' : 'events', { smart_count: preview.data.count, date: dateTime(preview.data.to, timeZone) })}</Typography>
          {preview.data.sample.length > 0 && (
            <>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {t('sample')}
              </Typography>
              <SimpleTable
                label={t('title')}
                headers={[t('columns.client'), t('columns.due'), t('columns.text')]}
                rows={preview.data.sample}
                rowKey={(row, index) => `${row.client_id}-${index}`}
                cells={(row) => [
                  [row.first_name, row.last_name].filter(Boolean).join(' ') || `#${row.client_id}`,
                  dateTime(row.due_at, timeZone),
                  <>
                    <strong>{row.title}</strong> {row.message}
                  </>,
                ]}
              />
            </>
          )}
        </Box>
      )}
    </Box>
  );
};
