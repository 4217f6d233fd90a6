import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, MenuItem, TextField } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRefresh, useTranslate } from 'react-admin';
import { OVERRIDE_DAYS, PUSH_BODY_MAX, PUSH_TITLE_MAX, overrideEnd, type OverrideDays } from '@contract/clientRules';
import { failureReason } from '../../messaging/failureReason';
import { newIdempotencyKey } from '../actions/actionRules';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { BulkTarget } from './bulkScope';
import { BulkProgress } from './BulkProgress';

/**
 * A push or an override for many clients (docs/features.md#bulk-actions): the same fields as for one
 * client, a confirmation naming how many it reaches, then its progress.
 */
export const BulkDialog = ({
  kind,
  target,
  count,
  open,
  onClose,
}: {
  kind: 'push' | 'override';
  target: BulkTarget;
  count: number;
  open: boolean;
  onClose(): void;
}) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`clients.bulk.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const refresh = useRefresh();
  const levels = useQuery({ queryKey: ['vod-access-levels'], queryFn: () => dataProvider.getAccessLevels(), enabled: open && kind === 'override' });
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [level, setLevel] = useState<number | ''>('');
  const [days, setDays] = useState<OverrideDays>(OVERRIDE_DAYS[0]);
  const [confirming, setConfirming] = useState(false);
  // One key per opening of the dialog: a click twice or a retried request acts once.
  const [key, setKey] = useState(newIdempotencyKey);
  const run = useMutation({
    mutationFn: async () =>
      kind === 'push'
        ? (await dataProvider.bulkPush({ ...target, title: title.trim(), body: body.trim() }, key)).id
        : (
            await dataProvider.bulkOverride(
              { ...target, new_vod_access_level: Number(level), adminOverrideDate: overrideEnd(days, new Date()).toISOString() },
              key,
            )
          ).id,
  });
  const plural = { smart_count: count, count: count.toLocaleString() };
  const ready = kind === 'push' ? body.trim() !== '' : level !== '';
  const close = () => {
    // The list shows what the action changed (levels, overrides) once it is closed.
    if (run.data !== undefined) refresh();
    setConfirming(false);
    setKey(newIdempotencyKey());
    run.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={run.isPending ? undefined : close} fullWidth maxWidth="sm" aria-labelledby="bulk-title">
      <DialogTitle id="bulk-title">{t(`${kind}_title`, plural)}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        {run.data !== undefined ? (
          <BulkProgress kind={kind} id={run.data} />
        ) : confirming ? (
          <DialogContentText role="alert">{t(`${kind}_confirm`, plural)}</DialogContentText>
        ) : kind === 'push' ? (
          <>
            <TextField
              label={translate('client.push_modal.fields.title')}
              value={title}
              onChange={(event) => setTitle(event.target.value)}
              slotProps={{ htmlInput: { maxLength: PUSH_TITLE_MAX } }}
              autoFocus
            />
            <TextField
              label={translate('client.push_modal.fields.message')}
              value={body}
              onChange={(event) => setBody(event.target.value)}
              helperText={translate('broadcasts.dialog.placeholders')}
              slotProps={{ htmlInput: { maxLength: PUSH_BODY_MAX } }}
              multiline
              minRows={3}
            />
          </>
        ) : (
          <>
            <TextField select label={translate('client.level_modal.new_level')} value={level} onChange={(event) => setLevel(Number(event.target.value))}>
              {(levels.data ?? []).map((option) => (
                <MenuItem key={option.sort_order} value={option.sort_order}>
                  {option.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField select label={t('days')} value={days} onChange={(event) => setDays(Number(event.target.value) as OverrideDays)}>
              {OVERRIDE_DAYS.map((choice) => (
                <MenuItem key={choice} value={choice}>
                  {translate(`client.level_modal.override_choices.${choice}`)}
                </MenuItem>
              ))}
            </TextField>
          </>
        )}
        {run.isError && <Alert severity="error">{failureReason(run.error, () => undefined)}</Alert>}
      </DialogContent>
      <DialogActions>
        {run.data !== undefined ? (
          <Button onClick={close}>{translate('ra.action.close')}</Button>
        ) : confirming ? (
          <>
            <Button onClick={() => setConfirming(false)} disabled={run.isPending}>
              {translate('ra.action.back')}
            </Button>
            <Button variant="contained" onClick={() => run.mutate()} loading={run.isPending}>
              {t(`${kind}_go`, plural)}
            </Button>
          </>
        ) : (
          <>
            <Button onClick={close}>{translate('ra.action.cancel')}</Button>
            <Button variant="contained" onClick={() => setConfirming(true)} disabled={!ready}>
              {translate('broadcasts.dialog.continue')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
};
