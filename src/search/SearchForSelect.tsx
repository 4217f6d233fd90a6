import { MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { CUSTOMERS_INDEX } from '@contract/searchRules';

export interface SearchForSelectProps {
  /** The stand-in's 'Search for:' had the focus when the widget arrived. */
  autoFocus?: boolean;
  /** …and was clicked or asked to open with a key. */
  defaultOpen?: boolean;
}

/** 'Search for:' (only Customers). Part of the widget's chunk; SearchForField stands in for it. */
export const SearchForSelect = ({ autoFocus = false, defaultOpen = false }: SearchForSelectProps) => {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      fullWidth
      label={translate('search.search_for')}
      value={CUSTOMERS_INDEX}
      autoFocus={autoFocus}
      slotProps={{ select: { defaultOpen } }}
      sx={{ mb: 1 }}
    >
      <MenuItem value={CUSTOMERS_INDEX}>{translate('search.indexes.customers')}</MenuItem>
    </TextField>
  );
};
