import { Button, IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { Notification as RaNotification, useCloseNotification, useTakeUndoableMutation, useTranslate } from 'react-admin';

const CloseButton = () => {
  const close = useCloseNotification();
  const translate = useTranslate();
  return (
    <IconButton size="small" color="inherit" aria-label={translate('app.notification.close')} onClick={close}>
      <CloseIcon fontSize="small" />
    </IconButton>
  );
};

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
      <CloseButton />
    </>
  );
};

// Spec §8 wants toasts closable; react-admin's only close on click-away/Escape. Options given to
// notify() win over these props, which is how UndoableActions replaces the Close button.
export const Notification = () => <RaNotification action={<CloseButton />} />;
