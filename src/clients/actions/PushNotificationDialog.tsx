import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { PUSH_BODY_MAX, PUSH_TITLE_MAX } from '@contract/clientRules';
import { failureReason } from '../../messaging/failureReason';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { clientSectionKey } from '../show/clientSections';
import { ActionResult } from './ActionResult';
import { MODAL_RESULT_MS, newIdempotencyKey } from './actionRules';
import { useTimedResult } from './useTimedResult';

/**
 * The spec's 'Push Notification Directly to Client': Sent/Error for 2 s, then closes. What was typed
 * is kept after an Error, so reopening offers it again.
 */
export const PushNotificationDialog = ({ client, open, onClose }: { client: ClientRecord; open: boolean; onClose(): void }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`client.push_modal.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [showRequired, setShowRequired] = useState(false);
  const [detail, setDetail] = useState<string | null>(null);
  // FCM asked to wait: the server answered at once and retries in the background.
  const [queued, setQueued] = useState(false);
  // One key per message: a double click or a retried request pushes once.
  const [key, setKey] = useState(newIdempotencyKey);

  const result = useTimedResult(MODAL_RESULT_MS, (outcome) => {
    if (outcome === 'success') {
      setTitle('');
      setMessage('');
    }
    setKey(newIdempotencyKey());
    setDetail(null);
    setQueued(false);
    onClose();
  });
  const send = useMutation({
    mutationFn: () => dataProvider.pushNotification(client, { title: title.trim(), body: message.trim() }, key),
    onSuccess: (answer) => {
      setDetail(answer.updated ? null : (answer.message ?? null));
      setQueued(answer.queued === true);
      result.show(answer.updated || answer.queued ? 'success' : 'error');
      void queryClient.invalidateQueries({ queryKey: clientSectionKey(client._id, 'pushes') });
      // The at-risk list's 'last contacted' moves once a push reached the client.
      if (answer.updated) void queryClient.invalidateQueries({ queryKey: ['at-risk'] });
    },
    onError: (error) => {
      setDetail(failureReason(error, () => undefined));
      result.show('error');
    },
  });
  const submit = () => {
    if (message.trim() === '') return setShowRequired(true);
    send.mutate();
  };
  const busy = send.isPending || result.outcome !== null;

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="push-title">
      <DialogTitle id="push-title">{t('title')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <TextField
          label={t('fields.title')}
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          slotProps={{ htmlInput: { maxLength: PUSH_TITLE_MAX } }}
          disabled={busy}
          autoFocus
          fullWidth
        />
        <TextField
          label={t('fields.message')}
          value={message}
          onChange={(event) => {
            setMessage(event.target.value);
            if (event.target.value.trim() !== '') setShowRequired(false);
          }}
          error={showRequired}
          helperText={showRequired ? t('message_required') : `${message.length}/${PUSH_BODY_MAX}`}
          slotProps={{ htmlInput: { maxLength: PUSH_BODY_MAX } }}
          disabled={busy}
          multiline
          minRows={3}
          fullWidth
        />
      </DialogContent>
      <DialogActions>
        <ActionResult
          outcome={result.outcome}
          success={translate(queued ? 'client.results.queued' : 'client.results.sent')}
          error={translate('client.results.error')}
          detail={detail}
        />
        <Button onClick={onClose} disabled={busy}>
          {t('cancel')}
        </Button>
        <Button variant="contained" onClick={submit} loading={send.isPending} disabled={result.outcome !== null}>
          {t('send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
