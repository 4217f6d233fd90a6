import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';
import { nextPeriod, percent, type Interval, type RevenueFigure } from '@contract/revenueRules';
import { BarChart } from '../dashboard/charts/BarChart';
import { LineChart } from '../dashboard/charts/LineChart';
import { FigureSection, type FigureCell } from './FigureSection';
import type { RevenueCharts } from './revenueData';
import { clientsBehind, periodClients, periodLabel, usd } from './revenueFormat';

const text = (value: string | number): FigureCell => ({ text: String(value), csv: value });
const dollars = (value: number, to?: string): FigureCell => ({ text: usd(value), csv: value.toFixed(2), to });
const count = (value: number, to?: string): FigureCell => ({ text: value.toLocaleString('en-US'), csv: value, to });
const rate = (value: number | null): FigureCell => ({ text: percent(value), csv: value === null ? '' : value.toFixed(4) });

/** Every chart of the range: MRR, its movement, conversion, churn, revenue, cancellation reasons. */
export function RevenueSections({ data, interval }: { data: RevenueCharts; interval: Interval }) {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`revenue.${key}`, options);
  const label = (start: string) => periodLabel(start, interval);
  const period = t('period');
  const at = (start: string, figure: RevenueFigure) => periodClients(figure, start, interval);
  // A running period's figures are as of now; a closed one's at its end.
  const endOf = (start: string) => {
    const end = `${nextPeriod(start, interval)}T00:00:00.000Z`;
    return end > data.mrr.as_of ? data.mrr.as_of : end;
  };

  const mrr = data.mrr.periods;
  const movement = data.movement.periods;
  const reasons = [...new Set(data.cancellations.periods.flatMap((p) => Object.keys(p.reasons)))].sort();
  const latest = mrr[mrr.length - 1];

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' } }}>
      <FigureSection
        title={t('mrr.title')}
        file="revenue-mrr"
        headers={[period, t('mrr.mrr'), t('mrr.subscriptions'), t('mrr.trials')]}
        chart={
          <LineChart
            title={t('mrr.title')}
            summary={t('mrr.summary', { value: usd(latest?.mrr_usd ?? 0), count: mrr.length })}
            points={mrr.map((p) => ({ key: p.start, label: label(p.start), value: p.mrr_usd }))}
            headers={[period, t('mrr.mrr')]}
            formatValue={usd}
          />
        }
        rows={mrr.map((p) => [
          text(label(p.start)),
          dollars(p.mrr_usd, clientsBehind('paying', endOf(p.start))),
          count(p.active_subscriptions, clientsBehind('paying', endOf(p.start))),
          count(p.active_trials, clientsBehind('trialing', endOf(p.start))),
        ])}
      />
      <FigureSection
        title={t('movement.title')}
        file="revenue-mrr-movement"
        note={t('movement.note')}
        headers={[
          period,
          t('movement.starting'),
          t('movement.new'),
          t('movement.expansion'),
          t('movement.contraction'),
          t('movement.churned'),
          t('movement.reactivated'),
          t('movement.net'),
          t('movement.ending'),
        ]}
        chart={
          <BarChart
            title={t('movement.title')}
            summary={t('movement.summary')}
            points={movement.map((p) => ({ key: p.start, label: label(p.start), value: p.net_usd }))}
            headers={[period, t('movement.net')]}
            formatValue={usd}
          />
        }
        rows={movement.map((p) => [
          text(label(p.start)),
          dollars(p.starting_usd),
          dollars(p.new_usd, at(p.start, 'new')),
          dollars(p.expansion_usd, at(p.start, 'expansion')),
          dollars(p.contraction_usd, at(p.start, 'contraction')),
          dollars(p.churned_usd, at(p.start, 'churned')),
          dollars(p.reactivated_usd, at(p.start, 'reactivated')),
          dollars(p.net_usd),
          dollars(p.ending_usd),
        ])}
      />
      <FigureSection
        title={t('conversion.title')}
        file="revenue-trial-conversion"
        headers={[period, t('conversion.started'), t('conversion.converted'), t('conversion.rate')]}
        chart={
          <BarChart
            title={t('conversion.title')}
            summary={t('conversion.summary')}
            points={data.conversion.periods.map((p) => ({ key: p.start, label: label(p.start), value: (p.rate ?? 0) * 100 }))}
            headers={[period, t('conversion.rate')]}
            formatValue={(v) => `${v.toFixed(0)} %`}
          />
        }
        rows={data.conversion.periods.map((p) => [
          text(label(p.start)),
          count(p.trials_started, at(p.start, 'trial_started')),
          count(p.converted, at(p.start, 'trial_converted')),
          rate(p.rate),
        ])}
      />
      <FigureSection
        title={t('churn.title')}
        file="revenue-churn"
        headers={[period, t('churn.active'), t('churn.ended'), t('churn.rate')]}
        chart={
          <BarChart
            title={t('churn.title')}
            summary={t('churn.summary')}
            points={data.churn.periods.map((p) => ({ key: p.start, label: label(p.start), value: (p.rate ?? 0) * 100 }))}
            headers={[period, t('churn.rate')]}
            formatValue={(v) => `${v.toFixed(1)} %`}
          />
        }
        rows={data.churn.periods.map((p) => [
          text(label(p.start)),
          count(p.active_at_start, clientsBehind('paying', `${p.start}T00:00:00Z`)),
          count(p.ended, at(p.start, 'subscription_ended')),
          rate(p.rate),
        ])}
      />
      <FigureSection
        title={t('revenue.title')}
        file="revenue-revenue"
        headers={[period, t('revenue.gross'), t('revenue.refunds'), t('revenue.net')]}
        chart={
          <BarChart
            title={t('revenue.title')}
            summary={t('revenue.summary')}
            points={data.revenue.periods.map((p) => ({ key: p.start, label: label(p.start), value: p.net_usd }))}
            headers={[period, t('revenue.net')]}
            formatValue={usd}
          />
        }
        rows={data.revenue.periods.map((p) => [text(label(p.start)), dollars(p.gross_usd), dollars(p.refunds_usd, at(p.start, 'refund')), dollars(p.net_usd)])}
      />
      <FigureSection
        title={t('cancellations.title')}
        file="revenue-cancellation-reasons"
        headers={[period, t('cancellations.total'), ...reasons]}
        chart={
          <BarChart
            title={t('cancellations.title')}
            summary={t('cancellations.summary')}
            points={data.cancellations.periods.map((p) => ({ key: p.start, label: label(p.start), value: p.total }))}
            headers={[period, t('cancellations.total')]}
            formatValue={(v) => v.toLocaleString('en-US')}
          />
        }
        rows={data.cancellations.periods.map((p) => [
          text(label(p.start)),
          count(p.total, at(p.start, 'cancellation')),
          ...reasons.map((reason) => count(p.reasons[reason] ?? 0)),
        ])}
      />
    </Box>
  );
}
