import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { OutcomeSummary } from '../../common/OutcomeSummary';
import { outcomeClientsPath } from '../../common/outcomeWords';
import { useConsoleDataProvider } from '../../providers/dataProvider';

/** Did this automated type work: its results by studio week, newest first (the last 12 weeks). */
export const AutomationOutcomes = ({ typeId }: { typeId: number }) => {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const weeks = useQuery({ queryKey: ['automated-messages', typeId, 'outcomes'], queryFn: () => dataProvider.getAutomationOutcomes(typeId), retry: false });
  const t = (key: string, options?: Record<string, unknown>) => translate(`outcomes.${key}`, options);
  return (
    <Box component="section" aria-labelledby={`outcomes-${typeId}`} sx={{ mt: 3 }}>
      <Typography id={`outcomes-${typeId}`} variant="subtitle1" component="h3">
        {t('weeks.title')}
      </Typography>
      {weeks.isPending ? (
        <CircularProgress size={24} aria-label={t('loading')} />
      ) : weeks.isError ? (
        <Alert severity="error">{t('failed')}</Alert>
      ) : weeks.data.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('weeks.empty')}
        </Typography>
      ) : (
        weeks.data.map((week) => (
          <Box key={week.week} sx={{ mt: 1.5 }}>
            <Typography variant="body2" component="h4" sx={{ fontWeight: 600 }}>
              {t('weeks.week', { week: week.week })}
            </Typography>
            <OutcomeSummary
              figures={week}
              goal={week.goal}
              windowDays={week.window_days}
              clientsPath={(group) => outcomeClientsPath(`automated:${typeId}:${week.week}:${group}`)}
            />
          </Box>
        ))
      )}
    </Box>
  );
};
