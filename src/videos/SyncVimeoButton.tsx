import { ListItemIcon, Tooltip, Typography } from '@mui/material';
import SyncIcon from '@mui/icons-material/Sync';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotify, useSidebarState, useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { NavButton } from '../layout/NavButton';
import { useCloseDrawerOnPhone } from '../layout/useCloseDrawerOnPhone';

// Both toasts last 6 s and are closable (see layout/Notification.tsx).
const TOAST_MS = 6000;

/** Sidebar entry of the Video Manager group: a button that starts the server-side Vimeo sync. */
export const SyncVimeoButton = () => {
  const dataProvider = useConsoleDataProvider();
  const notify = useNotify();
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  const closeDrawer = useCloseDrawerOnPhone();

  const queryClient = useQueryClient();

  const failed = () => notify('videos.sync.failed', { type: 'error', autoHideDuration: TOAST_MS });
  const { mutate, isPending } = useMutation({
    mutationFn: () => dataProvider.syncVimeoVideos(),
    onSuccess: ({ ok, alreadyRunning, unavailable }) => {
      // Ours (docs/integrations.md, circuit breakers): when Vimeo keeps failing, say when to try again instead of the plain failure.
      if (!ok && unavailable) return notify(unavailable, { type: 'error', autoHideDuration: TOAST_MS });
      if (!ok) return failed();
      // The Video Manager's progress panel picks the new (or running) sync up at once.
      void queryClient.invalidateQueries({ queryKey: ['vimeo-syncs'] });
      notify(alreadyRunning ? 'videos.sync.already_running' : 'videos.sync.started', {
        type: alreadyRunning ? 'info' : 'success',
        autoHideDuration: TOAST_MS,
      });
    },
    onError: failed,
  });

  const label = translate('videos.sync.button');
  const item = (
    <NavButton
      onClick={() => {
        mutate();
        // On a phone the toast and the page must not stay hidden under the drawer.
        closeDrawer();
      }}
      disabled={isPending}
      aria-label={sidebarOpen ? undefined : label}
      sx={{ color: 'text.secondary' }}
    >
      <ListItemIcon>
        <SyncIcon fontSize="small" />
      </ListItemIcon>
      <Typography variant="inherit" noWrap>
        {label}
      </Typography>
    </NavButton>
  );
  // The collapsed desktop sidebar shows icons only.
  return sidebarOpen ? (
    item
  ) : (
    <Tooltip title={label} placement="right">
      {item}
    </Tooltip>
  );
};
