import { Alert, LinearProgress } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../../providers/dataProvider';

/** A bulk push's or bulk override's progress, asked every second until it is over. */
export const BulkProgress = ({ kind, id }: { kind: 'push' | 'override'; id: number }) => {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const progress = useQuery({
    queryKey: ['bulk-progress', kind, id],
    queryFn: async () => {
      if (kind === 'override') {
        const action = await dataProvider.getBulkOverride(id);
        return { over: action.status === 'done', total: action.total, done: action.done, failed: action.failed, skipped: 0 };
      }
      const broadcast = await dataProvider.getBroadcast(id);
      const { sent, failed, skipped } = broadcast.counts;
      return { over: !['scheduled', 'sending'].includes(broadcast.status), total: broadcast.recipients, done: sent, failed, skipped };
    },
    refetchInterval: (query) => (query.state.data?.over ? false : 1000),
  });
  const data = progress.data;
  if (!data) return <LinearProgress aria-label={translate('clients.bulk.working')} />;
  const finished = data.done + data.failed + data.skipped;
  return (
    <>
      {!data.over && (
        <LinearProgress variant="determinate" value={data.total ? (100 * finished) / data.total : 0} aria-label={translate('clients.bulk.working')} />
      )}
      <Alert severity={data.failed ? 'warning' : data.over ? 'success' : 'info'} role="status">
        {translate(`clients.bulk.progress_${kind}`, { done: data.done, failed: data.failed, skipped: data.skipped, total: data.total })}
        {data.over ? ` ${translate('clients.bulk.finished')}` : ''}
      </Alert>
    </>
  );
};
