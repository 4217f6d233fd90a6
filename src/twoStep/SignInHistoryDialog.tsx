import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';
import { SignInHistory } from './SignInHistory';

/** 'Sign-in history' from the user menu: the member's own sign-ins and failed attempts. */
export const SignInHistoryDialog = ({ open, onClose }: { open: boolean; onClose(): void }) => {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="sign-in-history-title">
      <DialogTitle id="sign-in-history-title">{translate('account.history.title')}</DialogTitle>
      {/* Focusable: the list scrolls inside the dialog, and a keyboard must reach it. */}
      <DialogContent tabIndex={0}>
        <DialogContentText sx={{ mb: 2 }}>{translate('account.history.intro')}</DialogContentText>
        {open && <SignInHistory />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};
