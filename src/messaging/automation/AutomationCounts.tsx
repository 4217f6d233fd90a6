import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { SimpleTable } from '../../common/SimpleTable';
import { skippedEntries, skippedTotal } from './automationFormat';
import { useAutomationCounts } from './useAutomation';

interface Row {
  key: string;
  label: string;
  sent: number;
  failed: number;
  skipped: Record<string, number>;
}

/** Per template, the last 30 days: sent, failed, skipped with the reasons. */
export const AutomationCounts = ({ typeId }: { typeId: number }) => {
  const translate = useTranslate();
  const counts = useAutomationCounts(typeId);
  const t = (key: string, options?: Record<string, unknown>) => translate(`messaging.automation.counts.${key}`, options);
  const skipped = (values: Record<string, number>) =>
    skippedTotal(values) === 0
      ? '0'
      : `${skippedTotal(values)} (${skippedEntries(values)
          .map(([reason, n]) => `${translate(`messaging.automation.skip_reasons.${reason}`, { _: reason })}: ${n}`)
          .join(', ')})`;
  const rows: Row[] = counts.data
    ? [
        ...counts.data.templates.map((template) => ({ key: `t${template.push_message_id}`, label: template.title || template.message, ...template })),
        ...(counts.data.without_template.sent + counts.data.without_template.failed + skippedTotal(counts.data.without_template.skipped) > 0
          ? [{ key: 'without', label: t('without_template'), ...counts.data.without_template }]
          : []),
        { key: 'total', label: t('total'), ...counts.data.total },
      ]
    : [];
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="subtitle1" component="h3">
        {t('title')}
      </Typography>
      {counts.isPending ? (
        <CircularProgress size={24} aria-label={t('loading')} />
      ) : counts.isError ? (
        <Alert severity="error">{t('failed')}</Alert>
      ) : (
        <>
          <Box sx={{ overflowX: 'auto' }}>
            <SimpleTable
              label={t('title')}
              headers={[t('columns.template'), t('columns.sent'), t('columns.failed'), t('columns.skipped')]}
              rows={rows}
              rowKey={(row) => row.key}
              cells={(row) => [row.key === 'total' ? <strong>{row.label}</strong> : row.label, row.sent, row.failed, skipped(row.skipped)]}
            />
          </Box>
          {counts.data.pending > 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('pending', { smart_count: counts.data.pending })}
            </Typography>
          )}
        </>
      )}
    </Box>
  );
};
