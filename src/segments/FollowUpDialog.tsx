import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { CONTACT_KINDS, CONTACT_NOTE_MAX, SNOOZE_DAY_CHOICES, type ContactKind } from '@contract/contacts';
import { day } from '../common/format';
import { failureReason } from '../messaging/failureReason';
import { useConsoleDataProvider } from '../providers/dataProvider';

export type FollowUp = 'contact' | 'snooze';

/**
 * The at-risk list's follow-ups: log a call, a text or a message left, or snooze the client for some
 * days. What was typed stays until it is saved, so a failed save loses nothing.
 */
export const FollowUpDialog = (props: { mode: FollowUp; clientId: number; name: string; open: boolean; onClose(): void }) => {
  const { mode, clientId, name, open, onClose } = props;
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`segments.at_risk.${key}`, options);
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ContactKind>('called');
  const [days, setDays] = useState<number>(7);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      mode === 'contact'
        ? dataProvider.logContact(clientId, { kind, note: note.trim() || undefined })
        : dataProvider.snoozeClient(clientId, { days, note: note.trim() || undefined }),
    onSuccess: (entry) => {
      setNote('');
      setError(null);
      notify(entry.snoozed_until ? t('saved_snooze', { date: day(entry.snoozed_until) }) : t('saved_contact'), { type: 'success' });
      void queryClient.invalidateQueries({ queryKey: ['at-risk'] });
      void queryClient.invalidateQueries({ queryKey: ['clients', clientId] });
      onClose();
    },
    onError: (failure) => setError(t('failed', { reason: failureReason(failure, () => undefined) })),
  });
  const titleId = `follow-up-${mode}-${clientId}`;
  return (
    <Dialog open={open} onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t(mode === 'contact' ? 'contact_title' : 'snooze_title', { name })}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {mode === 'contact' ? (
          <RadioGroup aria-label={t('kind')} value={kind} onChange={(event) => setKind(event.target.value as ContactKind)}>
            {CONTACT_KINDS.map((option) => (
              <FormControlLabel key={option} value={option} control={<Radio />} label={t(`kinds.${option}`)} />
            ))}
          </RadioGroup>
        ) : (
          <>
            <DialogContentText>{t('snooze_explain')}</DialogContentText>
            <TextField select label={t('days')} value={days} onChange={(event) => setDays(Number(event.target.value))} fullWidth>
              {SNOOZE_DAY_CHOICES.map((choice) => (
                <MenuItem key={choice} value={choice}>
                  {t('days_choice', { smart_count: choice })}
                </MenuItem>
              ))}
            </TextField>
          </>
        )}
        <TextField
          label={t('note')}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          slotProps={{ htmlInput: { maxLength: CONTACT_NOTE_MAX } }}
          multiline
          minRows={2}
          fullWidth
        />
        {error && (
          <DialogContentText role="alert" color="error">
            {error}
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          {t('cancel')}
        </Button>
        <Button variant="contained" onClick={() => save.mutate()} loading={save.isPending}>
          {t('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
