import { Box, MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Interval } from '@contract/revenueRules';
import type { RevenueRange } from './revenueData';

/** The range and interval every chart of the page shows. */
export function RevenueRangeControls({ range, onChange }: { range: RevenueRange; onChange: (range: RevenueRange) => void }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
      <TextField
        select
        size="small"
        label={translate('revenue.range.interval')}
        value={range.interval}
        onChange={(event) => onChange({ ...range, interval: event.target.value as Interval })}
        fullWidth={false}
        sx={{ width: { xs: '100%', sm: 160 } }}
      >
        {(['day', 'week', 'month'] as const).map((interval) => (
          <MenuItem key={interval} value={interval}>
            {translate(`revenue.range.${interval}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="date"
        size="small"
        label={translate('revenue.range.from')}
        value={range.from}
        onChange={(event) => event.target.value && onChange({ ...range, from: event.target.value })}
        fullWidth={false}
        sx={{ width: { xs: '100%', sm: 180 } }}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: range.to } }}
      />
      <TextField
        type="date"
        size="small"
        label={translate('revenue.range.to')}
        value={range.to}
        onChange={(event) => event.target.value && onChange({ ...range, to: event.target.value })}
        fullWidth={false}
        sx={{ width: { xs: '100%', sm: 180 } }}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: range.from } }}
      />
    </Box>
  );
}
