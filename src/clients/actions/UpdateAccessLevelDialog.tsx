import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { OVERRIDE_DAYS, OVERRIDE_REASON_MAX } from '@contract/clientRules';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import { CLIENT_RESOURCE, type ClientRecord } from '../clientsData';
import { dateTime, orUnknown } from '../../common/format';
import { ActionResult } from './ActionResult';
import { MODAL_RESULT_MS } from './actionRules';
import { chosenOverrideEnd, customDayBounds, maxOverrideDays, type OverrideDuration } from './overrideRules';
import { useTimedResult } from './useTimedResult';

/** After a grant, an extension or an end: what the page shows of the client's override changes. */
export const invalidateOverrideViews = (queryClient: ReturnType<typeof useQueryClient>, clientId: number) => {
  void queryClient.invalidateQueries({ queryKey: [CLIENT_RESOURCE, 'getOne'] });
  void queryClient.invalidateQueries({ queryKey: ['clients', clientId] });
  void queryClient.invalidateQueries({ queryKey: ['overrides'] });
};

/**
 * The spec's 'Update Client VOD Access Level': a level and how long it lasts; Saved/Error for 2 s, then
 * closes. Ours: a custom end date (up to the server's OVERRIDE_MAX_DAYS) and a reason; `extend`
 * keeps the running override's level and asks only for a later end.
 */
export const UpdateAccessLevelDialog = ({
  client,
  open,
  onClose,
  extend = false,
}: {
  client: ClientRecord;
  open: boolean;
  onClose(): void;
  extend?: boolean;
}) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`client.level_modal.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const choices = useQuery({ queryKey: ['vod-access-levels', 'override-choices'], queryFn: () => dataProvider.getOverrideChoices(), enabled: open });
  const [level, setLevel] = useState<number | ''>(extend && client.vod_access_level !== null ? client.vod_access_level : '');
  const [duration, setDuration] = useState<OverrideDuration>(extend ? 'custom' : OVERRIDE_DAYS[0]);
  const [day, setDay] = useState('');
  const [reason, setReason] = useState('');
  const [showRequired, setShowRequired] = useState(false);
  // Recomputed on every render so the warning matches what Save sends (days from now).
  const now = new Date();
  const runningEnd = extend && client.admin_updated_expiration ? new Date(client.admin_updated_expiration) : null;
  const bounds = customDayBounds(now, maxOverrideDays(choices.data?.override_max_days), runningEnd);
  const until = chosenOverrideEnd(duration, day, now, bounds);

  const result = useTimedResult(MODAL_RESULT_MS, onClose);
  const save = useMutation({
    mutationFn: ({ sortOrder, end }: { sortOrder: number; end: Date }) =>
      dataProvider.updateClientAccessLevel({
        client_id: client._id,
        new_vod_access_level: sortOrder,
        adminOverrideDate: end.toISOString(),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      }),
    onSuccess: (answer) => {
      result.show(answer.errors.length === 0 ? 'success' : 'error');
      // The summary, the red override note and the timeline come from these.
      invalidateOverrideViews(queryClient, client._id);
    },
    onError: () => result.show('error'),
  });
  const submit = () => {
    // A custom day is read again at the moment of Save, as the fixed choices are.
    const end = chosenOverrideEnd(duration, day, new Date(), bounds);
    if (level === '' || end === null) return setShowRequired(true);
    save.mutate({ sortOrder: level, end });
  };
  const busy = save.isPending || result.outcome !== null;

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="update-level-title">
      <DialogTitle id="update-level-title">{extend ? t('extend_title') : t('title')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <Typography>
          {t('current_level')}: <strong data-field="current_level">{orUnknown(client.name, translate('client.unknown'))}</strong>
        </Typography>
        {!extend && (
          <TextField
            select
            label={t('new_level')}
            value={level}
            onChange={(event) => {
              setLevel(Number(event.target.value));
              setShowRequired(false);
            }}
            error={showRequired && level === ''}
            helperText={showRequired && level === '' ? t('choose_level') : undefined}
            disabled={busy}
            fullWidth
          >
            {(choices.data?.levels ?? []).map((option) => (
              <MenuItem key={option.sort_order} value={option.sort_order}>
                {option.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        {!extend && (
          <TextField
            select
            label={t('override_for')}
            value={duration}
            onChange={(event) => setDuration(event.target.value === 'custom' ? 'custom' : (Number(event.target.value) as OverrideDuration))}
            disabled={busy}
            fullWidth
          >
            {OVERRIDE_DAYS.map((choice) => (
              <MenuItem key={choice} value={choice}>
                {t(`override_choices.${choice}`)}
              </MenuItem>
            ))}
            <MenuItem value="custom">{t('custom_date')}</MenuItem>
          </TextField>
        )}
        {duration === 'custom' && (
          <TextField
            type="date"
            label={t('end_date')}
            value={day}
            onChange={(event) => {
              setDay(event.target.value);
              setShowRequired(false);
            }}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: bounds.min, max: bounds.max, 'data-field': 'end_date' } }}
            error={showRequired && until === null}
            helperText={
              showRequired && until === null ? t('choose_date', { min: bounds.min, max: bounds.max }) : t('date_range', { min: bounds.min, max: bounds.max })
            }
            disabled={busy}
            fullWidth
          />
        )}
        <TextField
          label={t('reason')}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          slotProps={{ htmlInput: { maxLength: OVERRIDE_REASON_MAX } }}
          helperText={t('reason_help')}
          disabled={busy}
          multiline
          minRows={2}
          fullWidth
        />
        {until && <Alert severity="warning">{t('warning', { date: dateTime(until.toISOString()) })}</Alert>}
      </DialogContent>
      <DialogActions>
        <ActionResult outcome={result.outcome} success={translate('client.results.saved')} error={translate('client.results.error')} />
        <Button onClick={onClose} disabled={busy}>
          {t('cancel')}
        </Button>
        <Button variant="contained" onClick={submit} loading={save.isPending} disabled={result.outcome !== null}>
          {extend ? t('extend') : t('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
