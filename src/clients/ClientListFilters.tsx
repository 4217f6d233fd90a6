import type { ReactElement } from 'react';
import { NullableBooleanInput, SearchInput, SelectArrayInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { ACCESS_LEVEL_SORT_ORDERS, CLIENT_STATUSES, LIST_RULES, NO_ACCESS_LEVEL } from '@contract/clientFilterRules';
import { OVERRIDE_DAYS } from '@contract/clientRules';
import type { ClientListDefinition } from './clientLists';

/** Wide enough for each label, so none is cut short. */
const width = (minWidth: number) => ({ minWidth });

/**
 * The filters of a client list (docs/features.md#client-filters): react-admin keeps their values
 * in the URL. A list does not offer the filter its own rule fixes (Active has no status filter).
 * On a phone only the search is always shown; the others are added from the filter button (one
 * with a value shows by itself).
 */
export function useClientListFilters(listId: ClientListDefinition['id'], isSmall: boolean): ReactElement[] {
  const alwaysOn = !isSmall;
  const translate = useTranslate();
  const t = (key: string) => translate(`clients.filters.${key}`);
  const rule = LIST_RULES[listId];
  const quickFilter = translate('clients.quick_filter');
  const levelChoices = [
    ...ACCESS_LEVEL_SORT_ORDERS.map((level) => ({ id: level, name: translate(`videos.access_levels.${level}`) })),
    { id: NO_ACCESS_LEVEL, name: t('no_level') },
  ];
  const yesNo = (key: string, yes: string, no: string, source: string, minWidth: number) => (
    <NullableBooleanInput
      key={key}
      source={source}
      label={t(key)}
      alwaysOn={alwaysOn}
      nullLabel={t('any')}
      trueLabel={t(yes)}
      falseLabel={t(no)}
      sx={width(minWidth)}
    />
  );
  return [
    <SearchInput key="q" source="q" alwaysOn placeholder={quickFilter} inputProps={{ 'aria-label': quickFilter }} />,
    ...(rule.status
      ? []
      : [
          <SelectArrayInput
            key="status"
            source="status"
            label={t('status')}
            alwaysOn={alwaysOn}
            choices={CLIENT_STATUSES.map((status) => ({ id: status, name: status }))}
            sx={width(140)}
          />,
        ]),
    <SelectArrayInput key="level" source="vod_access_level" label={t('vod_access_level')} alwaysOn={alwaysOn} choices={levelChoices} sx={width(190)} />,
    ...(rule.new === undefined ? [yesNo('new', 'new_yes', 'new_no', 'new', 130)] : []),
    ...(rule.mindbody === undefined ? [yesNo('mindbody', 'mindbody_yes', 'mindbody_no', 'mindbody', 140)] : []),
    yesNo('override_running', 'override_yes', 'override_no', 'override_running', 140),
    <SelectInput
      key="ends"
      source="override_ends_within_days"
      label={t('override_ends_within_days')}
      alwaysOn={alwaysOn}
      emptyText={t('any')}
      choices={OVERRIDE_DAYS.map((days) => ({ id: days, name: translate('clients.filters.days', { smart_count: days }) }))}
      sx={width(210)}
    />,
    // Clients carrying a tag (several: separated by commas).
    <TextInput key="tag" source="tag" label={t('tag')} alwaysOn={alwaysOn} resettable sx={width(150)} />,
  ];
}
