import { Card, CardActionArea, CardContent, CircularProgress, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { useTranslate } from 'react-admin';

export interface StatCardProps {
  label: string;
  value: string;
  loading?: boolean;
  /** The list behind the figure (ours); the whole card links there. */
  to?: string;
  linkLabel?: string;
}

/** Spec §2 "Dashboard": a label and a value, and a spinner while loading. */
export const StatCard = ({ label, value, loading = false, to, linkLabel }: StatCardProps) => {
  const translate = useTranslate();
  const content = (
    <CardContent>
      <Typography variant="overline" component="h2" color="text.secondary" sx={{ lineHeight: 1.6 }}>
        {label}
      </Typography>
      <Typography
        variant="h4"
        component="p"
        aria-busy={loading}
        sx={{ fontWeight: 600, mt: 1, display: 'flex', alignItems: 'center', gap: 2, color: loading ? 'text.disabled' : 'text.primary' }}
      >
        {value}
        {loading && <CircularProgress size={20} aria-label={translate('dashboard.loading')} />}
      </Typography>
    </CardContent>
  );
  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-stat-state={loading ? 'loading' : 'loaded'}>
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
