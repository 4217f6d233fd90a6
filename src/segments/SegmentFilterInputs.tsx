import { Box } from '@mui/material';
import { NullableBooleanInput, NumberInput, SelectArrayInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { ACCESS_LEVEL_SORT_ORDERS, CLIENT_STATUSES, MAX_ACTIVITY_DAYS, NO_ACCESS_LEVEL } from '@contract/clientFilterRules';
import { OVERRIDE_DAYS } from '@contract/clientRules';
import { ACTIVITY_KEYS, BOOLEAN_SEGMENT_KEYS } from '../common/listPaging';

/**
 * Every part of the client filter as form inputs under `filter.*` (docs/features.md#client-filters):
 * what a saved segment selects by. Empty parts select everyone.
 */
export const SegmentFilterInputs = () => {
  const translate = useTranslate();
  const t = (key: string) => translate(`clients.filters.${key}`);
  const s = (key: string) => translate(`segments.filters.${key}`);
  const yesNo = (key: string, label: string) => (
    <NullableBooleanInput
      key={key}
      source={`filter.${key}`}
      label={label}
      nullLabel={t('any')}
      trueLabel={s('yes')}
      falseLabel={s('no')}
      sx={{ minWidth: 200 }}
    />
  );
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' }, columnGap: 2, width: '100%' }}>
      <TextInput source="filter.q" label={translate('clients.quick_filter')} helperText={s('q_help')} />
      <SelectArrayInput source="filter.status" label={t('status')} choices={CLIENT_STATUSES.map((status) => ({ id: status, name: status }))} />
      <SelectArrayInput
        source="filter.vod_access_level"
        label={t('vod_access_level')}
        choices={[
          ...ACCESS_LEVEL_SORT_ORDERS.map((level) => ({ id: level, name: translate(`videos.access_levels.${level}`) })),
          { id: NO_ACCESS_LEVEL, name: t('no_level') },
        ]}
      />
      {yesNo('new', t('new'))}
      {yesNo('mindbody', t('mindbody'))}
      {yesNo('override_running', t('override_running'))}
      <SelectInput
        source="filter.override_ends_within_days"
        label={t('override_ends_within_days')}
        emptyText={t('any')}
        choices={OVERRIDE_DAYS.map((days) => ({ id: days, name: translate('clients.filters.days', { smart_count: days }) }))}
      />
      {ACTIVITY_KEYS.map((key) => (
        <NumberInput key={key} source={`filter.${key}`} label={s(key)} min={1} max={MAX_ACTIVITY_DAYS} step={1} helperText={s('days_help')} />
      ))}
      {BOOLEAN_SEGMENT_KEYS.map((key) => yesNo(key, s(key)))}
    </Box>
  );
};
