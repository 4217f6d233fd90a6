import { lazy, Suspense, useState } from 'react';
import { Button } from '@mui/material';
import { useCloseNotification, useNotificationContext, useTakeUndoableMutation, useTranslate } from 'react-admin';
import { NotificationCloseButton } from './NotificationCloseButton';

/**
 * Undo and Close for an undoable notification. react-admin's own Undo button gives way to the
 * `action` below, and which notification is showing cannot be told from outside (it leaves the
 * queue as it appears), so undoable notifications bring their buttons along:
 * `notify(message, { undoable: true, action: <UndoableActions /> })`.
 */
export const UndoableActions = () => {
  const takeMutation = useTakeUndoableMutation();
  const close = useCloseNotification();
  const translate = useTranslate();
  const undo = () => {
    takeMutation()?.({ isUndo: true });
    close();
  };
  return (
    <>
      <Button color="primary" size="small" onClick={undo}>
        {translate('ra.action.undo')}
      </Button>
      <NotificationCloseButton />
    </>
  );
};

// react-admin's snackbar is fetched with the first notification, not with the console: it takes the
// queued notification from the context as soon as it mounts, so nothing is lost meanwhile.
const NotificationSnackbar = lazy(() => import('./NotificationSnackbar'));

export const Notification = () => {
  const { notifications } = useNotificationContext();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length > 0) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <NotificationSnackbar />
    </Suspense>
  ) : null;
};
