import { Box, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { PageHeader } from '../layout/PageHeader';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { StatCard } from './StatCard';
import { TrendCharts } from './TrendCharts';
import { cardsState, formatStat, STAT_KEYS, type StatKey } from './statsRules';

/** Where each card leads (ours). The clients area has no subscriber filter, so it is the full list. */
const CARD_LINKS: Record<StatKey, string> = {
  subscribers: '/clients/all',
  daily_plays: '/videos',
  most_popular: '/videos',
};

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Spec §2 "Dashboard": three stat cards from GET /api/stats/v1; below them, the trend behind them (ours). */
const Dashboard = () => {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const stats = useQuery({ queryKey: ['dashboard', 'stats'], queryFn: () => dataProvider.getStats() });
  const state = cardsState(stats.data);
  const reasons = stats.data?.errors.map((error) => error.message).join(' ');

  return (
    <>
      <PageHeader
        title={translate('dashboard.title')}
        actions={
          stats.dataUpdatedAt > 0 && (
            <Typography variant="body2" color="text.secondary">
              {translate('dashboard.last_updated', { time: timeFormat.format(stats.dataUpdatedAt) })}
            </Typography>
          )
        }
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
        {STAT_KEYS.map((key) => (
          <StatCard
            key={key}
            label={translate(`dashboard.cards.${key}.label`)}
            value={state.loading ? translate(`dashboard.cards.${key}.placeholder`) : formatStat(state.values[key])}
            loading={state.loading}
            to={CARD_LINKS[key]}
            linkLabel={translate(`dashboard.cards.${key}.link`)}
          />
        ))}
      </Box>
      {reasons && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {translate('dashboard.not_available', { reasons })}
        </Typography>
      )}
      <TrendCharts />
    </>
  );
};

export default Dashboard;
