import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, Link, Switch, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import type { ClientFilter } from '@contract/clientFilterRules';
import type { Broadcast, BroadcastCreated } from '@contract/broadcasts';
import { PUSH_BODY_MAX, PUSH_TITLE_MAX } from '@contract/clientRules';
import { newIdempotencyKey } from '../clients/actions/actionRules';
import { failureReason } from '../messaging/failureReason';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { GoalFields, goalValid, proposedGoal } from './GoalFields';
import { BROADCASTS_PATH } from './paths';
import { VariantFields, noVariants, variantsRequest, variantsValid } from './VariantFields';

export type BroadcastTarget = { segment_id: number } | { filter: ClientFilter };

/**
 * A push to every client of a segment or a filter (docs/automation.md#broadcasts): the message,
 * now or at a moment, or a draft; sending asks once more, naming how many clients it reaches.
 * With `draft`, the same dialog edits a saved draft: its text is saved, then it is sent or scheduled.
 * A new broadcast may carry up to three versions of its text (VariantFields.tsx): the dialog's own
 * title and message are the first.
 */
export const BroadcastDialog = ({
  target,
  draft,
  recipients,
  estimate = false,
  open,
  onClose,
}: {
  recipients: number;
  estimate?: boolean;
  open: boolean;
  onClose(): void;
} & ({ target: BroadcastTarget; draft?: undefined } | { target?: undefined; draft: Broadcast })) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`broadcasts.dialog.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(draft?.title ?? '');
  const [body, setBody] = useState(draft?.body ?? '');
  const [later, setLater] = useState(false);
  const [sendAt, setSendAt] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<BroadcastCreated | null>(null);
  const [goal, setGoal] = useState(() => proposedGoal(recipients));
  const [versions, setVersions] = useState(noVariants);
  const tested = !draft && versions.more.length > 0;
  const letterA = tested ? ' (A)' : '';
  // One key per opening of the dialog: a click twice or a retried request sends one broadcast.
  const [key, setKey] = useState(newIdempotencyKey);
  const count = (estimate ? '~' : '') + recipients.toLocaleString();
  const plural = { count, smart_count: recipients };
  const send = useMutation({
    mutationFn: async (keepAsDraft: boolean): Promise<BroadcastCreated> => {
      const message = { title: title.trim(), body: body.trim() };
      const when = later && sendAt ? new Date(sendAt).toISOString() : undefined;
      if (!draft)
        return dataProvider.createBroadcast(
          {
            ...target,
            // With versions, the dialog's own title and message are the first one.
            ...(variantsRequest(versions, message) ?? message),
            goal: { kind: goal.kind, window_days: Number(goal.window_days) },
            holdout_percent: Number(goal.holdout_percent),
            ...(when ? { send_at: when } : {}),
            ...(keepAsDraft ? { draft: true } : {}),
          },
          key,
        );
      const saved = await dataProvider.updateBroadcastDraft(draft.id, message);
      return keepAsDraft
        ? { id: saved.id, recipients: saved.recipients, status: 'draft', recipients_estimate: saved.recipients_estimate }
        : dataProvider.sendBroadcastDraft(draft.id, when);
    },
    onSuccess: (created) => {
      setDone(created);
      void queryClient.invalidateQueries({ queryKey: ['broadcasts'] });
    },
  });
  const close = () => {
    setConfirming(false);
    setDone(null);
    setKey(newIdempotencyKey());
    setVersions(noVariants());
    send.reset();
    onClose();
  };
  const ready = body.trim() !== '' && (!later || sendAt !== '') && (draft !== undefined || (goalValid(goal) && variantsValid(versions, { title, body })));
  return (
    <Dialog open={open} onClose={send.isPending ? undefined : close} fullWidth maxWidth="sm" aria-labelledby="broadcast-title">
      <DialogTitle id="broadcast-title">{t(draft ? 'edit_title' : 'title', plural)}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        {done ? (
          <Alert severity="success" role="status">
            {t(`done_${done.status}`, { smart_count: done.recipients, count: (done.recipients_estimate ? '~' : '') + done.recipients.toLocaleString() })}{' '}
            <Link component={RouterLink} to={BROADCASTS_PATH} onClick={close}>
              {t('history')}
            </Link>
          </Alert>
        ) : confirming ? (
          <DialogContentText role="alert">
            {t(later ? 'confirm_later' : 'confirm_now', { ...plural, when: sendAt.replace('T', ' ') })}
            {!draft && Number(goal.holdout_percent) > 0 && ` ${t('confirm_holdout', { percent: goal.holdout_percent })}`}
            {tested &&
              ` ${t('confirm_versions', {
                versions: versions.more.length + 1,
                percent: versions.test_percent,
                smart_count: Number(versions.hours),
                metric: t(`versions.metrics.${versions.metric}`),
              })}`}
          </DialogContentText>
        ) : (
          <>
            <TextField
              label={t('fields.title') + letterA}
              value={title}
              onChange={(event) => setTitle(event.target.value)}
              slotProps={{ htmlInput: { maxLength: PUSH_TITLE_MAX } }}
              fullWidth
              autoFocus
            />
            <TextField
              label={t('fields.message') + letterA}
              value={body}
              onChange={(event) => setBody(event.target.value)}
              helperText={t('placeholders')}
              slotProps={{ htmlInput: { maxLength: PUSH_BODY_MAX } }}
              multiline
              minRows={3}
              fullWidth
            />
            {!draft && <VariantFields values={versions} onChange={setVersions} />}
            {!draft && <GoalFields values={goal} onChange={setGoal} />}
            <FormControlLabel control={<Switch checked={later} onChange={(event) => setLater(event.target.checked)} />} label={t('later')} />
            {later && (
              <TextField
                type="datetime-local"
                label={t('fields.send_at')}
                value={sendAt}
                onChange={(event) => setSendAt(event.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
              />
            )}
          </>
        )}
        {send.isError && <Alert severity="error">{failureReason(send.error, () => undefined)}</Alert>}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap' }}>
        {done ? (
          <Button onClick={close}>{translate('ra.action.close')}</Button>
        ) : confirming ? (
          <>
            <Button onClick={() => setConfirming(false)} disabled={send.isPending}>
              {translate('ra.action.back')}
            </Button>
            <Button variant="contained" onClick={() => send.mutate(false)} loading={send.isPending}>
              {t(later ? 'schedule_to' : 'send_to', plural)}
            </Button>
          </>
        ) : (
          <>
            <Button onClick={close}>{translate('ra.action.cancel')}</Button>
            <Button onClick={() => send.mutate(true)} disabled={body.trim() === '' || !variantsValid(versions, { title, body })} loading={send.isPending}>
              {t('save_draft')}
            </Button>
            <Button variant="contained" onClick={() => setConfirming(true)} disabled={!ready}>
              {t('continue')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
};
