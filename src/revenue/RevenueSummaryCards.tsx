import { Link as RouterLink } from 'react-router-dom';
import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { RevenueSummary } from '@contract/revenue';
import { clientsBehind, money, usd } from './revenueFormat';

const Figure = ({ label, value, detail, to }: { label: string; value: string; detail?: string; to?: string }) => {
  const body = (
    <CardContent>
      <Typography variant="body2" color="text.secondary" component="h2">
        {label}
      </Typography>
      <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
        {value}
      </Typography>
      {detail && (
        <Typography variant="body2" color="text.secondary">
          {detail}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Card variant="outlined">
      {to ? (
        <CardActionArea component={RouterLink} to={to}>
          {body}
        </CardActionArea>
      ) : (
        body
      )}
    </Card>
  );
};

/** MRR, subscriptions and trials now (each opening its clients), and the last 28 days' revenue. */
export function RevenueSummaryCards({ summary }: { summary: RevenueSummary }) {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`revenue.summary.${key}`, options);
  const currencies = summary.mrr.by_currency.map((c) => money(c.amount, c.currency)).join(' · ');
  const r = summary.revenue_28d;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, mb: 2 }}>
      <Figure label={t('mrr')} value={usd(summary.mrr.usd)} detail={currencies || undefined} to={clientsBehind('paying', summary.as_of)} />
      <Figure label={t('subscriptions')} value={summary.active_subscriptions.toLocaleString('en-US')} to={clientsBehind('paying', summary.as_of)} />
      <Figure label={t('trials')} value={summary.active_trials.toLocaleString('en-US')} to={clientsBehind('trialing', summary.as_of)} />
      <Figure label={t('revenue_28d')} value={usd(r.net_usd)} detail={t('revenue_28d_detail', { gross: usd(r.gross_usd), refunds: usd(r.refunds_usd) })} />
    </Box>
  );
}
