import { useState, type ReactNode } from 'react';
import { Alert, Box, Button, Skeleton } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { PageHeader } from '../layout/PageHeader';
import { periodsBack, periodStart } from '@contract/revenueRules';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { CohortTriangle } from './CohortTriangle';
import type { RevenueRange } from './revenueData';
import { RevenueRangeControls } from './RevenueRangeControls';
import { RevenueSections } from './RevenueSections';
import { RevenueSummaryCards } from './RevenueSummaryCards';

const today = () => new Date().toISOString().slice(0, 10);
/** The last twelve months, this one included. */
const defaultRange = (): RevenueRange => ({ interval: 'month', from: periodsBack(today(), 'month', 11), to: today() });

/** The Revenue area (docs/revenue.md): MRR and its movement, subscriptions and trials, conversion, churn, revenue, cancellations, cohorts. */
export default function RevenuePage() {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const [range, setRange] = useState(defaultRange);
  const summary = useQuery({ queryKey: ['revenue', 'summary'], queryFn: () => dataProvider.getRevenueSummary(), retry: false });
  const charts = useQuery({ queryKey: ['revenue', 'charts', range], queryFn: () => dataProvider.getRevenueCharts(range), retry: false });
  const cohortFrom = periodStart(range.from, 'month');
  const paying = useQuery({
    queryKey: ['revenue', 'cohorts', 'paying', cohortFrom, range.to],
    queryFn: () => dataProvider.getRevenueCohorts('paying', cohortFrom, range.to),
    retry: false,
  });
  const active = useQuery({
    queryKey: ['revenue', 'cohorts', 'active', cohortFrom, range.to],
    queryFn: () => dataProvider.getRevenueCohorts('active', cohortFrom, range.to),
    retry: false,
  });

  const failed = (query: { isError: boolean; error: unknown; refetch: () => unknown }) => (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={() => void query.refetch()}>
          {translate('revenue.retry')}
        </Button>
      }
    >
      {query.error instanceof Error ? query.error.message : translate('revenue.unavailable')}
    </Alert>
  );
  const show = <T,>(query: { data?: T; isError: boolean; error: unknown; refetch: () => unknown }, draw: (data: T) => ReactNode, height = 120) =>
    query.isError ? failed(query) : query.data ? draw(query.data) : <Skeleton variant="rounded" height={height} />;

  return (
    <Box sx={{ py: 2 }}>
      <PageHeader title={translate('revenue.title')} />
      {show(summary, (data) => (
        <RevenueSummaryCards summary={data} />
      ))}
      <RevenueRangeControls range={range} onChange={setRange} />
      {show(
        charts,
        (data) => (
          <RevenueSections data={data} interval={range.interval} />
        ),
        400,
      )}
      <Box sx={{ display: 'grid', gap: 2, mt: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' } }}>
        {show(paying, (data) => (
          <CohortTriangle kind="paying" data={data} />
        ))}
        {show(active, (data) => (
          <CohortTriangle kind="active" data={data} />
        ))}
      </Box>
    </Box>
  );
}
