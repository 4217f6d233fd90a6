import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../providers/dataProvider';
import type { AddMessageRequest } from '@contract/messaging';
import { MessagePreview } from './MessagePreview';
import { messagesQueryKey } from './useMessageTemplates';

const TOAST_MS = 6000;

/** 'Add new message': content is required, the title is not validated. */
export const AddMessageDialog = ({ typeId, open, onClose }: { typeId: number; open: boolean; onClose(): void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [enabled, setEnabled] = useState(false);
  const [showRequired, setShowRequired] = useState(false);

  const reset = () => {
    setTitle('');
    setMessage('');
    setEnabled(false);
    setShowRequired(false);
  };
  const close = () => {
    reset();
    onClose();
  };

  const add = useMutation({
    mutationFn: (body: AddMessageRequest) => dataProvider.addPushMessage(body),
    onSuccess: (answer) => {
      if (answer.status !== 'success') return failed();
      notify('messaging.notify.saved', { type: 'success', autoHideDuration: TOAST_MS });
      void queryClient.invalidateQueries({ queryKey: messagesQueryKey(typeId) });
      close();
    },
    onError: () => failed(),
  });
  // The dialog stays open on failure so the text typed is not lost.
  const failed = () => notify('messaging.notify.save_error', { type: 'error', autoHideDuration: TOAST_MS });

  const save = () => {
    if (message.trim() === '') {
      setShowRequired(true);
      return;
    }
    add.mutate({ enabled, message, message_type: typeId, title });
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="add-message-title">
      <DialogTitle id="add-message-title">{translate('messaging.add_modal.title')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <TextField label={translate('messaging.add_modal.fields.title')} value={title} onChange={(event) => setTitle(event.target.value)} fullWidth />
        <div>
          <TextField
            label={translate('messaging.add_modal.fields.message')}
            value={message}
            onChange={(event) => {
              setMessage(event.target.value);
              if (event.target.value.trim() !== '') setShowRequired(false);
            }}
            error={showRequired}
            helperText={showRequired ? translate('messaging.add_modal.message_required') : undefined}
            multiline
            minRows={3}
            fullWidth
          />
          <MessagePreview text={message} />
        </div>
        <FormControlLabel
          control={<Switch checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />}
          label={translate('messaging.add_modal.fields.enabled')}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('messaging.add_modal.cancel')}</Button>
        <Button variant="contained" onClick={save} loading={add.isPending}>
          {translate('messaging.add_modal.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
