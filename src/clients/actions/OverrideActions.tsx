import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { dateTime } from '../../common/format';
import { invalidateOverrideViews, UpdateAccessLevelDialog } from './UpdateAccessLevelDialog';

/** Ours: 'Extend' and 'End now' where the running override is shown (the override permission). */
export const OverrideActions = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`client.override_actions.${key}`, options);
  const [open, setOpen] = useState<'extend' | 'end' | null>(null);
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const end = useMutation({
    mutationFn: () => dataProvider.endClientOverride(client._id),
    onSuccess: () => {
      setOpen(null);
      notify(t('ended'), { type: 'success' });
      invalidateOverrideViews(queryClient, client._id);
    },
    onError: (error: Error) => notify(t('end_failed', { message: error.message }), { type: 'error' }),
  });
  if (!client.admin_updated_expiration) return null;
  return (
    <>
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ mt: 1 }}>
        <Button size="small" variant="outlined" onClick={() => setOpen('extend')}>
          {t('extend')}
        </Button>
        <Button size="small" variant="outlined" color="error" onClick={() => setOpen('end')}>
          {t('end_now')}
        </Button>
      </Stack>
      {open === 'extend' && <UpdateAccessLevelDialog client={client} open extend onClose={() => setOpen(null)} />}
      <Dialog open={open === 'end'} onClose={end.isPending ? undefined : () => setOpen(null)} aria-labelledby="end-override-title">
        <DialogTitle id="end-override-title">{t('end_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('end_text', { date: dateTime(client.admin_updated_expiration) })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(null)} disabled={end.isPending}>
            {t('cancel')}
          </Button>
          <Button variant="contained" color="error" onClick={() => end.mutate()} loading={end.isPending}>
            {t('end_now')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
};
