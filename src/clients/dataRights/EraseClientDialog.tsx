import { useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { ERASE_REASON_MAX } from '@contract/clientData';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { erasureKey } from './useErasure';

/** Asks for a reason and the client's e-mail typed again; nothing is erased until both are given and the e-mail matches. */
export const EraseClientDialog = ({ client, open, onClose }: { client: ClientRecord; open: boolean; onClose(): void }) => {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`data_rights.erase.${key}`, options);
  const notify = useNotify();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const dataProvider = useConsoleDataProvider();
  const [reason, setReason] = useState('');
  const [confirmEmail, setConfirmEmail] = useState('');
  const erase = useMutation({
    mutationFn: () => dataProvider.eraseClient(client._id, { reason: reason.trim(), confirm_email: confirmEmail }),
    onSuccess: (erasure) => {
      queryClient.setQueryData(erasureKey(client._id), erasure);
      notify('data_rights.erase.done', { type: 'success' });
      onClose();
      refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    erase.mutate();
  };
  const confirmLabel = client.email_address ? t('confirm_email') : t('confirm_number', { number: `#${client._id}` });
  return (
    <Dialog open={open} onClose={erase.isPending ? undefined : onClose} maxWidth="sm" fullWidth aria-labelledby="erase-client-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="erase-client-title">{t('title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('body')}</DialogContentText>
          <Stack spacing={2}>
            <TextField
              label={t('reason')}
              helperText={t('reason_help')}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              required
              multiline
              minRows={2}
              slotProps={{ htmlInput: { maxLength: ERASE_REASON_MAX } }}
              autoFocus
            />
            <TextField
              label={confirmLabel}
              value={confirmEmail}
              onChange={(event) => setConfirmEmail(event.target.value)}
              required
              autoComplete="off"
              slotProps={{ htmlInput: { spellCheck: false } }}
            />
            {erase.error && (
              <Alert severity="error" role="alert">
                {t('failed', { reason: erase.error.message })}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={erase.isPending}>
            {t('cancel')}
          </Button>
          <Button type="submit" color="error" variant="contained" disabled={erase.isPending || reason.trim().length < 3 || confirmEmail.trim() === ''}>
            {t('submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
