import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { OVERRIDE_DAYS, overrideEnd, type OverrideDays } from '../../../contract/clientRules';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import { CLIENT_RESOURCE, type ClientRecord } from '../clientsData';
import { dateTime, orUnknown } from '../format';
import { ActionResult } from './ActionResult';
import { MODAL_RESULT_MS } from './actionRules';
import { useTimedResult } from './useTimedResult';

/** Spec §2 'Update Client VOD Access Level': a level and how long it lasts; Saved/Error for 2 s, then closes. */
export const UpdateAccessLevelDialog = ({ client, open, onClose }: { client: ClientRecord; open: boolean; onClose(): void }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`client.level_modal.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const levels = useQuery({ queryKey: ['vod-access-levels'], queryFn: () => dataProvider.getAccessLevels(), enabled: open });
  const [level, setLevel] = useState<number | ''>('');
  const [days, setDays] = useState<OverrideDays>(OVERRIDE_DAYS[0]);
  const [showRequired, setShowRequired] = useState(false);
  // Recomputed on every render so the warning matches what Save sends (spec §4: days from now).
  const until = overrideEnd(days, new Date());

  const result = useTimedResult(MODAL_RESULT_MS, onClose);
  const save = useMutation({
    mutationFn: (sortOrder: number) =>
      dataProvider.updateClientAccessLevel({ client_id: client._id, new_vod_access_level: sortOrder, adminOverrideDate: overrideEnd(days, new Date()).toISOString() }),
    onSuccess: (answer) => {
      result.show(answer.errors.length === 0 ? 'success' : 'error');
      // The summary and the red override note come from the client record.
      void queryClient.invalidateQueries({ queryKey: [CLIENT_RESOURCE, 'getOne'] });
    },
    onError: () => result.show('error'),
  });
  const submit = () => {
    if (level === '') return setShowRequired(true);
    save.mutate(level);
  };
  const busy = save.isPending || result.outcome !== null;

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="update-level-title">
      <DialogTitle id="update-level-title">{t('title')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <Typography>
          {t('current_level')}: <strong data-field="current_level">{orUnknown(client.name, translate('client.unknown'))}</strong>
        </Typography>
        <TextField
          select
          label={t('new_level')}
          value={level}
          onChange={(event) => {
            setLevel(Number(event.target.value));
            setShowRequired(false);
          }}
          error={showRequired}
          helperText={showRequired ? t('choose_level') : undefined}
          disabled={busy}
          fullWidth
        >
          {(levels.data ?? []).map((option) => (
            <MenuItem key={option.sort_order} value={option.sort_order}>
              {option.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label={t('override_for')} value={days} onChange={(event) => setDays(Number(event.target.value) as OverrideDays)} disabled={busy} fullWidth>
          {OVERRIDE_DAYS.map((choice) => (
            <MenuItem key={choice} value={choice}>
              {t(`override_choices.${choice}`)}
            </MenuItem>
          ))}
        </TextField>
        <Alert severity="warning">{t('warning', { date: dateTime(until.toISOString()) })}</Alert>
      </DialogContent>
      <DialogActions>
        <ActionResult outcome={result.outcome} success={translate('client.results.saved')} error={translate('client.results.error')} />
        <Button onClick={onClose} disabled={busy}>
          {t('cancel')}
        </Button>
        <Button variant="contained" onClick={submit} loading={save.isPending} disabled={result.outcome !== null}>
          {t('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
