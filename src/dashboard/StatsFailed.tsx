import { Alert, Button } from '@mui/material';
import { useTranslate } from 'react-admin';

export interface StatsFailedProps {
  reason: string;
  retrying: boolean;
  onRetry(): void;
}

/** The stats call failed: why, and Try again. Fetched when shown (MUI's Alert is not in the first download). */
const StatsFailed = ({ reason, retrying, onRetry }: StatsFailedProps) => {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      sx={{ mt: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onRetry} loading={retrying}>
          {translate('dashboard.retry')}
        </Button>
      }
    >
      {translate('dashboard.call_failed', { reason: reason || translate('ra.message.error') })}
    </Alert>
  );
};

export default StatsFailed;
