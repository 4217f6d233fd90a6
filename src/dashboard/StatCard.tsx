import { Card, CardActionArea, CardContent, CircularProgress, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { formatStat, type CardState } from './statsRules';

export interface StatCardProps {
  label: string;
  /** Shown while loading. */
  placeholder: string;
  card: CardState;
  /** The list behind the figure (ours); the whole card links there. */
  to?: string;
  linkLabel?: string;
}

/** The spec's "Dashboard": a label and a value, a spinner while loading; ours: a plain "could not be computed" once failed. */
export const StatCard = ({ label, placeholder, card, to, linkLabel }: StatCardProps) => {
  const translate = useTranslate();
  const loading = card.state === 'loading';
  const content = (
    <CardContent>
      <Typography variant="overline" component="h2" color="text.secondary" sx={{ lineHeight: 1.6 }}>
        {label}
      </Typography>
      {card.state === 'failed' ? (
        <>
          <Typography variant="h6" component="p" color="error" sx={{ mt: 1 }}>
            {translate('dashboard.failed')}
          </Typography>
          {card.reason && (
            <Typography variant="body2" color="text.secondary">
              {card.reason}
            </Typography>
          )}
        </>
      ) : (
        <Typography
          variant="h4"
          component="p"
          aria-busy={loading}
          sx={{ fontWeight: 600, mt: 1, display: 'flex', alignItems: 'center', gap: 2, color: loading ? 'text.secondary' : 'text.primary' }}
        >
          {card.state === 'loaded' ? formatStat(card.value) : placeholder}
          {loading && <CircularProgress size={20} aria-label={translate('dashboard.loading')} />}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-stat-state={card.state}>
      {to ? (
        <CardActionArea component={Link} to={to} title={linkLabel} sx={{ height: '100%' }}>
          {content}
        </CardActionArea>
      ) : (
        content
      )}
    </Card>
  );
};
