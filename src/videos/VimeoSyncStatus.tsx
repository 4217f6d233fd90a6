import { useEffect, useRef } from 'react';
import { Alert, Box, Chip, LinearProgress, Tooltip } from '@mui/material';
import { useGetList, useRefresh, useTranslate } from 'react-admin';
import type { VimeoSync } from '@contract/videos';
import { describeSync, formatSyncDate, isSyncActive, syncPercent } from './syncProgress';

const newest = { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'DESC' as const } };
const POLL_MS = 1000;

/**
 * Progress and outcome of the latest Vimeo sync, above the video list: polled every second while
 * one runs; when it ends the list reloads to show what it added and updated.
 */
export const VimeoSyncStatus = () => {
  const translate = useTranslate();
  const refresh = useRefresh();
  const { data: latest, isPending } = useGetList<VimeoSync>('vimeo-syncs', newest, {
    refetchInterval: (query) => (isSyncActive(query.state.data?.data?.[0]) ? POLL_MS : false),
  });
  const sync = latest?.[0];
  const { data: completed } = useGetList<VimeoSync>('vimeo-syncs', { ...newest, filter: { state: 'done' } }, { enabled: !!sync && sync.state !== 'done' });
  const lastDone = sync?.state === 'done' ? undefined : completed?.[0];

  const wasActive = useRef(false);
  useEffect(() => {
    const active = isSyncActive(sync);
    if (wasActive.current && !active) refresh();
    wasActive.current = active;
  }, [sync, refresh]);

  if (isPending) return null;
  const line = describeSync(sync, (iso) => formatSyncDate(iso));
  const percent = sync?.state === 'running' ? syncPercent(sync) : null;
  return (
    <Alert
      severity={line.severity}
      variant="outlined"
      role="status"
      aria-label={translate('videos.sync_status.label')}
      sx={{ mb: 2, '& .MuiAlert-message': { flexGrow: 1 } }}
      action={
        sync?.source === 'sandbox' ? (
          <Tooltip title={translate('videos.sync_status.sandbox_hint')}>
            <Chip size="small" label={translate('videos.sync_status.sandbox')} />
          </Tooltip>
        ) : undefined
      }
    >
      <Box>{translate(line.key, line.args)}</Box>
      {lastDone?.finished_at && (
        <Box sx={{ color: 'text.secondary' }}>{translate('videos.sync_status.last_done', { date: formatSyncDate(lastDone.finished_at) })}</Box>
      )}
      {isSyncActive(sync) && (
        <LinearProgress
          sx={{ mt: 1 }}
          variant={percent === null ? 'indeterminate' : 'determinate'}
          value={percent ?? undefined}
          aria-label={translate('videos.sync_status.label')}
        />
      )}
    </Alert>
  );
};
