import { Link as RouterLink } from 'react-router-dom';
import { Card, CardContent, Link, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { periodsBack } from '@contract/revenueRules';
import { LineChart } from '../dashboard/charts/LineChart';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { REVENUE_PATH } from './revenuePaths';
import { periodLabel, usd } from './revenueFormat';

/** The dashboard's MRR card: MRR now and its last twelve months; shown to roles with 'revenue.read'. */
export default function MrrCard() {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const to = new Date().toISOString().slice(0, 10);
  const range = { interval: 'month' as const, from: periodsBack(to, 'month', 11), to };
  const trend = useQuery({ queryKey: ['revenue', 'dashboard-mrr', range], queryFn: () => dataProvider.getRevenueMrr(range), retry: false });
  const points = trend.data?.periods ?? [];
  const now = points[points.length - 1]?.mrr_usd ?? 0;
  const before = points[points.length - 2]?.mrr_usd;
  const change = before === undefined ? null : now - before;
  const title = translate('revenue.dashboard.title');
  return (
    <Card variant="outlined" sx={{ mt: 3 }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {trend.isError ? (
          <Typography color="text.secondary">{translate('revenue.unavailable')}</Typography>
        ) : !trend.data ? (
          <Skeleton variant="rounded" height={220} />
        ) : (
          <>
            <Typography variant="h4" component="p" sx={{ fontWeight: 600 }}>
              {usd(now)}
            </Typography>
            {change !== null && (
              <Typography variant="body2" color="text.secondary">
                {translate('revenue.dashboard.change', { change: `${change >= 0 ? '+' : '−'}${usd(Math.abs(change))}` })}
              </Typography>
            )}
            <LineChart
              title={title}
              summary={translate('revenue.mrr.summary', { value: usd(now), count: points.length })}
              points={points.map((p) => ({ key: p.start, label: periodLabel(p.start, 'month'), value: p.mrr_usd }))}
              headers={[translate('revenue.period'), translate('revenue.mrr.mrr')]}
              formatValue={usd}
            />
            <Link component={RouterLink} to={REVENUE_PATH}>
              {translate('revenue.dashboard.open')}
            </Link>
          </>
        )}
      </CardContent>
    </Card>
  );
}
