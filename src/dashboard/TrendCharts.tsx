import type { ReactNode } from 'react';
import { Box, Button, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { BarChart } from './charts/BarChart';
import { LineChart } from './charts/LineChart';
import { CHART_HEIGHT } from './charts/ChartFrame';
import { shortDate } from './charts/chartScale';
import { formatStat } from './statsRules';
import { playsSummary, subscribersSummary } from './trendSummaries';

const ChartCard = ({ title, children }: { title: string; children: ReactNode }) => (
  <Card variant="outlined">
    <CardContent>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </CardContent>
  </Card>
);

/** Ours, beyond the spec: the daily plays and paid subscribers behind the cards. */
export const TrendCharts = () => {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const trends = useQuery({ queryKey: ['dashboard', 'trends'], queryFn: () => dataProvider.getStatsTrends(), retry: false });
  const playsTitle = translate('dashboard.trends.daily_plays.title');
  const subscribersTitle = translate('dashboard.trends.subscribers.title');

  const body = (draw: () => ReactNode) =>
    trends.isError ? (
      <Box role="alert" sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Typography color="text.secondary">{translate('dashboard.trends.unavailable')}</Typography>
        <Button size="small" onClick={() => void trends.refetch()} loading={trends.isFetching}>
          {translate('dashboard.retry')}
        </Button>
      </Box>
    ) : trends.data ? (
      draw()
    ) : (
      <Skeleton variant="rounded" height={CHART_HEIGHT} />
    );

  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' } }}>
      <ChartCard title={playsTitle}>
        {body(() => {
          const points = trends.data!.daily_plays;
          const plays = playsSummary(points);
          return (
            <BarChart
              title={playsTitle}
              summary={translate('dashboard.trends.daily_plays.summary', plays.texts)}
              points={points.map((p) => ({ key: p.day, label: shortDate(p.day), value: p.plays }))}
              reference={{ value: plays.average, label: translate('dashboard.trends.daily_plays.average', { value: formatStat(plays.average) }) }}
              headers={[translate('dashboard.trends.daily_plays.day'), translate('dashboard.trends.daily_plays.plays')]}
              formatValue={formatStat}
            />
          );
        })}
      </ChartCard>
      <ChartCard title={subscribersTitle}>
        {body(() => {
          const points = trends.data!.paid_subscribers;
          return (
            <LineChart
              title={subscribersTitle}
              summary={translate('dashboard.trends.subscribers.summary', subscribersSummary(points))}
              points={points.map((p) => ({ key: p.at, label: shortDate(p.at), value: p.subscribers }))}
              headers={[translate('dashboard.trends.subscribers.week'), translate('dashboard.trends.subscribers.subscribers')]}
              formatValue={formatStat}
            />
          );
        })}
      </ChartCard>
    </Box>
  );
};
