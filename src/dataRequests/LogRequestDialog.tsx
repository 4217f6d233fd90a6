import { useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../providers/dataProvider';

const today = () => new Date().toISOString().slice(0, 10);

/** Logs a request as it arrived (a letter, an e-mail), before anyone handles it: its month starts then. */
export const LogRequestDialog = ({ open, onClose, onSaved }: { open: boolean; onClose(): void; onSaved(): void }) => {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`data_rights.requests.${key}`, options);
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const [kind, setKind] = useState<'access' | 'erasure'>('access');
  const [clientId, setClientId] = useState('');
  const [received, setReceived] = useState(today);
  const [note, setNote] = useState('');
  const save = useMutation({
    mutationFn: () =>
      dataProvider.logDataRequest({
        kind,
        client_id: Number(clientId),
        received_at: new Date(`${received}T12:00:00Z`).toISOString(),
        ...(note.trim() ? { note: note.trim() } : {}),
      }),
    onSuccess: () => {
      notify('data_rights.requests.saved', { type: 'success' });
      onSaved();
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const validId = /^[1-9]\d{0,15}$/.test(clientId.trim());
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="log-request-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="log-request-title">{t('form.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField select label={t('form.kind')} value={kind} onChange={(event) => setKind(event.target.value as 'access' | 'erasure')}>
              <MenuItem value="access">{t('kinds.access')}</MenuItem>
              <MenuItem value="erasure">{t('kinds.erasure')}</MenuItem>
            </TextField>
            <TextField
              label={t('form.client_id')}
              value={clientId}
              onChange={(event) => setClientId(event.target.value)}
              required
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              autoFocus
            />
            <TextField
              type="date"
              label={t('form.received_at')}
              value={received}
              onChange={(event) => setReceived(event.target.value)}
              required
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today() } }}
            />
            <TextField label={t('form.note')} value={note} onChange={(event) => setNote(event.target.value)} slotProps={{ htmlInput: { maxLength: 1000 } }} />
            {save.error && (
              <Alert severity="error" role="alert">
                {t('failed', { reason: save.error.message })}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!validId || !received || save.isPending}>
            {t('form.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
