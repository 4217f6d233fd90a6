import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useListContext, useTranslate } from 'react-admin';
import { MESSAGE_TYPES } from '@contract/messageTypes';

/**
 * A list opened from a message's results (the `outcome` filter has no input of its own): says whose
 * clients these are, and clears it.
 */
export const OutcomeFilterNote = () => {
  const translate = useTranslate();
  const { filterValues, displayedFilters, setFilters } = useListContext();
  const outcome = typeof filterValues?.outcome === 'string' ? filterValues.outcome : null;
  if (!outcome) return null;
  const parts = outcome.split(':');
  const group = translate(`outcomes.groups.${parts[parts.length - 1]}`, { count: '' }).replace(/\s*\(\s*\)$/, '');
  const message =
    parts[0] === 'broadcast'
      ? translate('outcomes.filter.broadcast', { id: parts[1], group })
      : translate('outcomes.filter.automated', {
          type: translate(`messaging.types.${MESSAGE_TYPES.find((type) => String(type.id) === parts[1])?.key ?? ''}`, { _: parts[1] }),
          week: parts[2],
          group,
        });
  const clear = () => {
    const { outcome: _dropped, ...rest } = filterValues;
    setFilters(rest, displayedFilters);
  };
  return (
    <Alert
      severity="info"
      sx={{ mb: 1 }}
      action={
        <Button color="inherit" size="small" onClick={clear}>
          {translate('outcomes.filter.clear')}
        </Button>
      }
    >
      {message}
    </Alert>
  );
};
