import { Stack, Tooltip, Typography } from '@mui/material';
import CloudDoneIcon from '@mui/icons-material/CloudDone';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import SyncIcon from '@mui/icons-material/Sync';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { dateTime } from '../common/format';
import { describeMindbodyBudget, describeMindbodySync, type SyncTone } from './mindbodySync';

const ICONS: Record<SyncTone, typeof SyncIcon> = { ok: CloudDoneIcon, running: SyncIcon, failed: ErrorOutlineIcon, never: CloudOffIcon };
const COLORS: Record<SyncTone, 'success' | 'info' | 'warning' | 'disabled'> = { ok: 'success', running: 'info', failed: 'warning', never: 'disabled' };

/**
 * One line for the client lists' header: when Mindbody was last synced, how the last attempt
 * ended, the day's Mindbody calls against MINDBODY_DAILY_CALL_LIMIT and whose visits wait. Refreshes every minute, every 5 s while an import runs. Renders nothing until it knows.
 */
export const MindbodySyncStatus = () => {
  const dataProvider = useConsoleDataProvider();
  const translate = useTranslate();
  const { data } = useQuery({
    queryKey: ['mindbodySyncStatus'],
    queryFn: () => dataProvider.getMindbodySyncStatus(),
    refetchInterval: (query) => (query.state.data?.running ? 5_000 : 60_000),
  });
  // After a 401 react-admin resolves the call with an empty object while the browser leaves for the login page.
  if (!data || !Array.isArray(data.sites)) return null;
  const line = describeMindbodySync(data);
  const Icon = ICONS[line.tone];
  const text = translate(line.key, { time: line.syncedAt ? dateTime(line.syncedAt) : '' });
  const hint = line.detail ?? (data.mode === 'sandbox' ? translate('mindbody_sync.sandbox') : '');
  const budget = describeMindbodyBudget(data);
  const budgetText = [
    translate(budget.calls.key, { calls: budget.calls.calls, limit: budget.calls.limit }),
    ...(budget.deferred ? [translate(budget.deferred.key, { count: budget.deferred.count })] : []),
  ].join(' · ');
  const content = (
    <Stack role="status" direction="row" spacing={0.75} alignItems="center" sx={{ color: 'text.secondary', width: 'fit-content' }}>
      <Icon fontSize="small" color={COLORS[line.tone]} />
      <Typography variant="body2">{text}</Typography>
      <Typography variant="caption">({budgetText})</Typography>
    </Stack>
  );
  return hint ? (
    <Tooltip title={hint} placement="bottom-start">
      {content}
    </Tooltip>
  ) : (
    content
  );
};

export default MindbodySyncStatus;
