import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { calendarDay, dateTime } from '../clients/format';
import { describeUserAgent } from '../sessions/userAgent';
import { humanizeField, type ValueNames } from './auditFormat';

/** What the audit log needs to put values and field names in words (the client levels come from the server). */
export function useValueNames(): { names: ValueNames; fieldLabel: (field: string) => string } {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const levels = useQuery({ queryKey: ['vod-access-levels'], queryFn: () => dataProvider.getAccessLevels(), staleTime: 5 * 60_000 });
  return useMemo(() => {
    const byOrder = new Map((levels.data ?? []).map((level) => [Number(level.sort_order), level.name]));
    const names: ValueNames = {
      yes: translate('audit.values.yes'),
      no: translate('audit.values.no'),
      videoLevel: (id) => translate(`videos.access_levels.${id}`, { _: '' }) || undefined,
      clientLevel: (sortOrder) => byOrder.get(sortOrder),
      dateTime: (iso) => dateTime(iso),
      date: (day) => calendarDay(day),
      browser: (userAgent) => describeUserAgent(userAgent) ?? userAgent,
    };
    return { names, fieldLabel: (field: string) => translate(`audit.fields.${field}`, { _: humanizeField(field) }) };
  }, [levels.data, translate]);
}
