import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'react-admin';
import {
  GOAL_KINDS,
  GOAL_WINDOW_MAX_DAYS,
  GOAL_WINDOW_MIN_DAYS,
  HOLDOUT_MAX_PERCENT,
  HOLDOUT_PROPOSED_FROM,
  HOLDOUT_PROPOSED_PERCENT,
  type GoalKind,
} from '@contract/outcomeRules';

export interface GoalValues {
  kind: GoalKind;
  window_days: string;
  holdout_percent: string;
}

/** What the dialog proposes: any goal within 7 days; a 10 % holdout from 1,000 recipients up. */
export const proposedGoal = (recipients: number): GoalValues => ({
  kind: 'any',
  window_days: '7',
  holdout_percent: String(recipients >= HOLDOUT_PROPOSED_FROM ? HOLDOUT_PROPOSED_PERCENT : 0),
});

const whole = (text: string, min: number, max: number) => /^\d{1,3}$/.test(text) && Number(text) >= min && Number(text) <= max;
export const goalValid = (values: GoalValues) =>
  whole(values.window_days, GOAL_WINDOW_MIN_DAYS, GOAL_WINDOW_MAX_DAYS) && whole(values.holdout_percent, 0, HOLDOUT_MAX_PERCENT);

/** The broadcast's goal, its window and the share held out to measure the lift. */
export const GoalFields = ({ values, onChange }: { values: GoalValues; onChange(values: GoalValues): void }) => {
  const translate = useTranslate();
  const t = (key: string) => translate(`outcomes.${key}`);
  const windowOk = whole(values.window_days, GOAL_WINDOW_MIN_DAYS, GOAL_WINDOW_MAX_DAYS);
  const holdoutOk = whole(values.holdout_percent, 0, HOLDOUT_MAX_PERCENT);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
      <TextField
        select
        label={t('fields.goal')}
        value={values.kind}
        onChange={(event) => onChange({ ...values, kind: event.target.value as GoalKind })}
        sx={{ flex: '1 1 200px' }}
      >
        {GOAL_KINDS.map((kind) => (
          <MenuItem key={kind} value={kind}>
            {translate(`outcomes.goals.${kind}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="number"
        label={t('fields.window_days')}
        value={values.window_days}
        error={!windowOk}
        onChange={(event) => onChange({ ...values, window_days: event.target.value })}
        slotProps={{ htmlInput: { min: GOAL_WINDOW_MIN_DAYS, max: GOAL_WINDOW_MAX_DAYS } }}
        sx={{ flex: '1 1 120px' }}
      />
      <TextField
        type="number"
        label={t('fields.holdout_percent')}
        value={values.holdout_percent}
        error={!holdoutOk}
        helperText={t('help.holdout')}
        onChange={(event) => onChange({ ...values, holdout_percent: event.target.value })}
        slotProps={{ htmlInput: { min: 0, max: HOLDOUT_MAX_PERCENT } }}
        sx={{ flex: '1 1 100%' }}
      />
    </Box>
  );
};
