import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { calendarDay, dateTime } from '../common/format';
import { describeUserAgent } from '../sessions/userAgent';
import { describeClientFilter } from '../segments/filterWords';
import { humanizeField, type ValueNames } from './auditFormat';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The audit log's words for values and fields, given the messages and the client levels' names (by sort_order). */
export function valueNamesFor(translate: Translate, levels: ReadonlyMap<number, string>): { names: ValueNames; fieldLabel: (field: string) => string } {
  const fieldLabel = (field: string) => translate(`audit.fields.${field}`, { _: humanizeField(field) });
  const names: ValueNames = {
    yes: translate('audit.values.yes'),
    no: translate('audit.values.no'),
    videoLevel: (id) => translate(`videos.access_levels.${id}`, { _: '' }) || undefined,
    clientLevel: (sortOrder) => levels.get(sortOrder),
    dateTime: (iso) => dateTime(iso),
    date: (day) => calendarDay(day),
    browser: (userAgent) => describeUserAgent(userAgent) ?? userAgent,
    filter: (filter) => describeClientFilter(filter, translate, (sortOrder) => levels.get(sortOrder)),
    field: fieldLabel,
  };
  return { names, fieldLabel };
}

/** What the audit log needs to put values and field names in words (the client levels come from the server). */
export function useValueNames(): { names: ValueNames; fieldLabel: (field: string) => string } {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const levels = useQuery({ queryKey: ['vod-access-levels'], queryFn: () => dataProvider.getAccessLevels(), staleTime: 5 * 60_000 });
  return useMemo(() => valueNamesFor(translate, new Map((levels.data ?? []).map((level) => [Number(level.sort_order), level.name]))), [levels.data, translate]);
}
