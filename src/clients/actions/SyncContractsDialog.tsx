import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';

/** The spec's 'Sync Client Contracts': says it uses MindBody API calls; Confirm starts the sync. */
export const SyncContractsDialog = ({ open, onConfirm, onClose }: { open: boolean; onConfirm(): void; onClose(): void }) => {
  const translate = useTranslate();
  const t = (key: string) => translate(`client.sync_modal.${key}`);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="sync-contracts-title">
      <DialogTitle id="sync-contracts-title">{t('title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" onClick={onConfirm} autoFocus>
          {t('confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
