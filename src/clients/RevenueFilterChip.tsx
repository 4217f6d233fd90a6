import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import CloseIcon from '@mui/icons-material/Close';
import { useListContext, useTranslate } from 'react-admin';
import type { ClientFilter } from '@contract/clientFilterRules';
import { BroadcastButton } from '../broadcasts';
import { clientFilterOf } from '../common/listPaging';
import { revenueFilterWords } from './revenueFilterWords';

/**
 * A list opened from a Revenue figure (the `revenue_*` filter has no input of its own): the figure in
 * words as a chip that removes it, and a broadcast to exactly these clients. Saving them as a segment
 * is the list's own 'Save as segment', which keeps the figure in the segment's filter.
 */
export const RevenueFilterChip = ({ rules }: { rules: ClientFilter }) => {
  const translate = useTranslate();
  const { filterValues, displayedFilters, setFilters, total } = useListContext();
  const words = revenueFilterWords(filterValues ?? {}, translate);
  if (!words) return null;
  const remove = () => {
    const { revenue_figure: _figure, revenue_from: _from, revenue_to: _to, ...rest } = filterValues;
    setFilters(rest, displayedFilters);
  };
  const removeLabel = translate('revenue.figure_words.remove', { words });
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      <Chip
        label={words}
        color="primary"
        variant="outlined"
        onDelete={remove}
        deleteIcon={<CloseIcon titleAccess={removeLabel} />}
        aria-label={`${translate('revenue.figure_words.label')}: ${words}. ${removeLabel}`}
        sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.5 } }}
      />
      {typeof total === 'number' && <BroadcastButton target={{ filter: { ...rules, ...clientFilterOf(filterValues) } }} recipients={total} />}
    </Stack>
  );
};
