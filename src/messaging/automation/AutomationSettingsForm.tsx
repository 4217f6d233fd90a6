import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useNotify, useTranslate } from 'react-admin';
import { AUTOMATION_FIELDS, type AutomationGlobalSettings, type AutomationSettingsResponse, type AutomationTypeSettings } from '@contract/automation';
import { GOAL_KINDS } from '@contract/outcomeRules';
import { dateTime } from '../../common/format';
import { failureReason } from '../failureReason';
import { changedFields, editableFields, formatMilestones, parseMilestones } from './automationFormat';
import { useSaveAutomationSettings } from './useAutomation';

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0];
const fieldWidth = { width: { xs: '100%', sm: 220 } };

/** The type's trigger settings and the shared quiet hours and daily cap, saved together. */
export const AutomationSettingsForm = ({ typeId, stored }: { typeId: number; stored: AutomationSettingsResponse }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const save = useSaveAutomationSettings(typeId);
  const [settings, setSettings] = useState<AutomationTypeSettings>(stored.settings);
  const [global, setGlobal] = useState<AutomationGlobalSettings>(stored.global);
  const [milestones, setMilestones] = useState(formatMilestones(stored.settings.milestones));
  const t = (key: string, options?: Record<string, unknown>) => translate(`messaging.automation.${key}`, options);
  const parsedMilestones = parseMilestones(milestones);
  const edited = { ...settings, milestones: parsedMilestones ?? settings.milestones };
  const settingsChange = changedFields(stored.settings, edited);
  const globalChange = changedFields(stored.global, global);
  const dirty = Object.keys(settingsChange).length + Object.keys(globalChange).length > 0;
  const set = <K extends keyof AutomationTypeSettings>(key: K, value: AutomationTypeSettings[K]) => setSettings((current) => ({ ...current, [key]: value }));
  const number = (value: string) => (value === '' ? Number.NaN : Number(value));

  const submit = async () => {
    try {
      await save.mutateAsync({ settings: settingsChange, global: globalChange });
      notify('messaging.automation.notify.saved', { type: 'success' });
    } catch (error) {
      // 'settings.delay_minutes' / 'global.daily_cap' → the field's label
      const label = (path: string) => {
        const name = path.replace(/^(settings|global)\./, '').split('.')[0]!;
        return translate(`messaging.automation.fields.${name}`, { _: path });
      };
      notify('messaging.automation.notify.save_failed', { type: 'error', messageArgs: { reason: failureReason(error, label) } });
    }
  };

  const field = (name: ReturnType<typeof editableFields>[number]) => {
    const label = t(`fields.${name}`);
    switch (name) {
      case 'send_time':
        return (
          <TextField
            key={name}
            type="time"
            label={label}
            value={settings.send_time}
            onChange={(e) => set('send_time', e.target.value)}
            sx={fieldWidth}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        );
      case 'weekday':
        return (
          <TextField key={name} select label={label} value={settings.weekday} onChange={(e) => set('weekday', Number(e.target.value))} sx={fieldWidth}>
            {WEEKDAYS.map((day) => (
              <MenuItem key={day} value={day}>
                {t(`weekdays.${day}`)}
              </MenuItem>
            ))}
          </TextField>
        );
      case 'goal':
        return (
          <TextField
            key={name}
            select
            label={label}
            value={settings.goal}
            onChange={(e) => set('goal', e.target.value as typeof settings.goal)}
            sx={{ width: { xs: '100%', sm: 320 } }}
          >
            {GOAL_KINDS.map((kind) => (
              <MenuItem key={kind} value={kind}>
                {translate(`outcomes.goals.${kind}`)}
              </MenuItem>
            ))}
          </TextField>
        );
      case 'milestones':
        return (
          <TextField
            key={name}
            label={label}
            value={milestones}
            onChange={(e) => setMilestones(e.target.value)}
            error={parsedMilestones === undefined}
            helperText={parsedMilestones === undefined ? t('help.milestones_invalid') : t('help.milestones')}
            sx={{ width: { xs: '100%', sm: 460 } }}
          />
        );
      default:
        return (
          <TextField
            key={name}
            type="number"
            label={label}
            value={Number.isNaN(settings[name]) ? '' : settings[name]}
            onChange={(e) => set(name, number(e.target.value))}
            sx={fieldWidth}
            slotProps={{ htmlInput: { min: name === 'delay_minutes' || name === 'holdout_percent' ? 0 : 1 } }}
          />
        );
    }
  };

  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      aria-label={t('title')}
    >
      <FormControlLabel control={<Switch checked={settings.active} onChange={(e) => set('active', e.target.checked)} />} label={t('active')} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {!stored.settings.active
          ? t('status.paused')
          : stored.next_run_at
            ? t('status.next_run', { date: dateTime(stored.next_run_at, stored.time_zone), zone: stored.time_zone })
            : t('status.running', { zone: stored.time_zone })}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2 }}>{editableFields(AUTOMATION_FIELDS[typeId] ?? []).map(field)}</Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <TextField
          type="time"
          label={t('fields.quiet_start')}
          value={global.quiet_start}
          onChange={(e) => setGlobal({ ...global, quiet_start: e.target.value })}
          sx={fieldWidth}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="time"
          label={t('fields.quiet_end')}
          value={global.quiet_end}
          onChange={(e) => setGlobal({ ...global, quiet_end: e.target.value })}
          sx={fieldWidth}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="number"
          label={t('fields.daily_cap')}
          value={Number.isNaN(global.daily_cap) ? '' : global.daily_cap}
          onChange={(e) => setGlobal({ ...global, daily_cap: number(e.target.value) })}
          sx={{ width: { xs: '100%', sm: 300 } }}
          slotProps={{ htmlInput: { min: 1 } }}
        />
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        {t('help.shared')}
      </Typography>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
        <Button type="submit" variant="contained" disabled={!dirty || parsedMilestones === undefined} loading={save.isPending}>
          {t('actions.save')}
        </Button>
      </Box>
    </Box>
  );
};
