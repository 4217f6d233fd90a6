import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { PUSH_BODY_MAX, PUSH_TITLE_MAX } from '@contract/clientRules';
import {
  PICK_WINNER_HOURS_DEFAULT,
  PICK_WINNER_HOURS_MAX,
  PICK_WINNER_HOURS_MIN,
  TEST_PERCENT_DEFAULT,
  TEST_PERCENT_MAX,
  TEST_PERCENT_MIN,
  VARIANTS_MAX,
  WINNER_METRICS,
  variantLetter,
  type WinnerMetric,
} from '@contract/outcomeRules';

/** The versions after the first (the dialog's own title and message are version A), and the test's settings. */
export interface VariantValues {
  more: { title: string; body: string }[];
  test_percent: string;
  hours: string;
  metric: WinnerMetric;
}

export const noVariants = (): VariantValues => ({
  more: [],
  test_percent: String(TEST_PERCENT_DEFAULT),
  hours: String(PICK_WINNER_HOURS_DEFAULT),
  metric: 'conversion',
});

const whole = (text: string, min: number, max: number) => /^\d{1,3}$/.test(text) && Number(text) >= min && Number(text) <= max;

/** Ready to send: one text, or every version with a title and a message, and settings in range. */
export const variantsValid = (values: VariantValues, first: { title: string; body: string }) =>
  values.more.length === 0 ||
  ([first, ...values.more].every((v) => v.title.trim() !== '' && v.body.trim() !== '') &&
    whole(values.test_percent, TEST_PERCENT_MIN, TEST_PERCENT_MAX) &&
    whole(values.hours, PICK_WINNER_HOURS_MIN, PICK_WINNER_HOURS_MAX));

/** The request's part: nothing with one text, else the versions (the first is the dialog's own) and the test's settings. */
export const variantsRequest = (values: VariantValues, first: { title: string; body: string }) =>
  values.more.length === 0
    ? null
    : {
        variants: [first, ...values.more].map((v) => ({ title: v.title.trim(), body: v.body.trim() })),
        test_percent: Number(values.test_percent),
        pick_winner_after_hours: Number(values.hours),
        winner_metric: values.metric,
      };

/** Versions B and C of a broadcast's text, and when and by what the winner is picked. */
export const VariantFields = ({ values, onChange }: { values: VariantValues; onChange(values: VariantValues): void }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`broadcasts.dialog.versions.${key}`, options);
  const setVersion = (index: number, change: Partial<{ title: string; body: string }>) =>
    onChange({ ...values, more: values.more.map((v, i) => (i === index ? { ...v, ...change } : v)) });
  const testOk = whole(values.test_percent, TEST_PERCENT_MIN, TEST_PERCENT_MAX);
  const hoursOk = whole(values.hours, PICK_WINNER_HOURS_MIN, PICK_WINNER_HOURS_MAX);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {values.more.map((version, index) => {
        const letter = variantLetter(index + 1);
        return (
          <Box
            key={letter}
            component="fieldset"
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, display: 'flex', flexDirection: 'column', gap: 2, p: 2, m: 0 }}
          >
            <Typography component="legend" variant="subtitle2" sx={{ px: 0.5 }}>
              {t('version', { letter })}
            </Typography>
            <TextField
              label={`${translate('broadcasts.dialog.fields.title')} (${letter})`}
              value={version.title}
              onChange={(event) => setVersion(index, { title: event.target.value })}
              slotProps={{ htmlInput: { maxLength: PUSH_TITLE_MAX } }}
              fullWidth
            />
            <TextField
              label={`${translate('broadcasts.dialog.fields.message')} (${letter})`}
              value={version.body}
              onChange={(event) => setVersion(index, { body: event.target.value })}
              slotProps={{ htmlInput: { maxLength: PUSH_BODY_MAX } }}
              multiline
              minRows={2}
              fullWidth
            />
            <Button sx={{ alignSelf: 'flex-start' }} onClick={() => onChange({ ...values, more: values.more.filter((_, i) => i !== index) })}>
              {t('remove', { letter })}
            </Button>
          </Box>
        );
      })}
      {values.more.length + 1 < VARIANTS_MAX && (
        <Box>
          <Button onClick={() => onChange({ ...values, more: [...values.more, { title: '', body: '' }] })}>{t('add')}</Button>
          <Typography variant="body2" color="text.secondary">
            {t('help')}
          </Typography>
        </Box>
      )}
      {values.more.length > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          <TextField
            type="number"
            label={t('test_percent')}
            value={values.test_percent}
            error={!testOk}
            helperText={t('test_percent_help')}
            onChange={(event) => onChange({ ...values, test_percent: event.target.value })}
            slotProps={{ htmlInput: { min: TEST_PERCENT_MIN, max: TEST_PERCENT_MAX } }}
            sx={{ flex: '1 1 140px' }}
          />
          <TextField
            type="number"
            label={t('hours')}
            value={values.hours}
            error={!hoursOk}
            helperText={t('hours_help')}
            onChange={(event) => onChange({ ...values, hours: event.target.value })}
            slotProps={{ htmlInput: { min: PICK_WINNER_HOURS_MIN, max: PICK_WINNER_HOURS_MAX } }}
            sx={{ flex: '1 1 140px' }}
          />
          <TextField
            select
            label={t('metric')}
            value={values.metric}
            onChange={(event) => onChange({ ...values, metric: event.target.value as WinnerMetric })}
            sx={{ flex: '1 1 140px' }}
          >
            {WINNER_METRICS.map((metric) => (
              <MenuItem key={metric} value={metric}>
                {t(`metrics.${metric}`)}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      )}
    </Box>
  );
};
