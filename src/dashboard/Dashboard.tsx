import { Suspense } from 'react';
import { lazyChunk } from '../common/chunks';
import { Box, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { PageHeader } from '../layout/PageHeader';
import { useCan } from '../layout/useCan';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { StatCard } from './StatCard';
import { TrendCharts } from './TrendCharts';
import { cardsState, categoryVideosPath, PAID_CLIENTS_PATH, STAT_KEYS, VIDEO_PLAYS_PATH, type StatKey } from './statsRules';

// Shown only when the stats call fails: fetched then.
const StatsFailed = lazyChunk(() => import('./StatsFailed'));
// Owners and managers only: fetched for them.
const MrrCard = lazyChunk(() => import('../revenue/MrrCard'));

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** The spec's "Dashboard": three stat cards from GET /api/stats/v1; below them, the trend behind them (ours). */
const Dashboard = () => {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  // No automatic retries: a failure shows at once, with its own Try again.
  const stats = useQuery({ queryKey: ['dashboard', 'stats'], queryFn: () => dataProvider.getStats(), retry: false });
  const cards = cardsState(stats);
  // Every role sees the figures; a card links only to a list the role may open.
  const opens: Record<StatKey, boolean> = {
    subscribers: useCan('clients', 'list'),
    daily_plays: useCan('videos', 'list'),
    most_popular: useCan('videos', 'list'),
  };
  // Each card opens what is behind it; the most popular category by its id.
  const popular = stats.data?.result.most_popular ?? null;
  const categories = useQuery({
    queryKey: ['dashboard', 'categories'],
    queryFn: () => dataProvider.getList('video-categories', { pagination: { page: 1, perPage: 500 }, sort: { field: 'name', order: 'ASC' }, filter: {} }),
    enabled: opens.most_popular && popular !== null,
    retry: false,
  });
  const popularId = categories.data?.data.find((category) => category.name === popular)?.id as number | undefined;
  const seesRevenue = useCan('revenue', 'list');
  const links: Record<StatKey, string> = { subscribers: PAID_CLIENTS_PATH, daily_plays: VIDEO_PLAYS_PATH, most_popular: categoryVideosPath(popularId) };

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
            placeholder={translate(`dashboard.cards.${key}.placeholder`)}
            card={cards[key]}
            to={opens[key] ? links[key] : undefined}
            linkLabel={translate(`dashboard.cards.${key}.link`)}
          />
        ))}
      </Box>
      {stats.isError && (
        <Suspense fallback={null}>
          <StatsFailed reason={stats.error.message} retrying={stats.isFetching} onRetry={() => void stats.refetch()} />
        </Suspense>
      )}
      {seesRevenue && (
        <Suspense fallback={null}>
          <MrrCard />
        </Suspense>
      )}
      <TrendCharts />
    </>
  );
};

export default Dashboard;
