import { Component, Suspense, useState, type ReactNode } from 'react';
import { lazyChunk, retryFailedChunks } from '../common/chunks';
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
const NotificationSnackbar = lazyChunk(() => import('./NotificationSnackbar'));

/** Shows nothing when the snackbar's code could not be fetched (the console goes on without it). */
class QuietBoundary extends Component<{ children: ReactNode; onError: () => void }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch() {
    this.props.onError();
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

export const Notification = () => {
  const { notifications } = useNotificationContext();
  const [wanted, setWanted] = useState(false);
  // How many notifications were waiting when the snackbar's code failed: it is fetched again when another comes.
  const [failedAt, setFailedAt] = useState(0);
  if (!wanted && notifications.length > failedAt) {
    if (failedAt > 0) retryFailedChunks();
    setWanted(true);
  }
  return wanted ? (
    <QuietBoundary
      onError={() => {
        setFailedAt(notifications.length);
        setWanted(false);
      }}
    >
      <Suspense fallback={null}>
        <NotificationSnackbar />
      </Suspense>
    </QuietBoundary>
  ) : null;
};
