import { useTranslate } from 'react-admin';
import { nextPeriod } from '@contract/revenueRules';
import type { CohortResponse } from '@contract/revenue';
import { FigureSection, type FigureCell } from './FigureSection';
import { clientsBehind, periodLabel } from './revenueFormat';

/** Month N after the cohort's, as a day. */
function monthAfter(start: string, n: number) {
  let month = start;
  for (let i = 0; i < n; i++) month = nextPeriod(month, 'month');
  return month;
}

/** A cohort triangle: a row per month of first payment, a column per month after it, shaded by the share still there. */
export function CohortTriangle({ kind, data }: { kind: 'paying' | 'active'; data: CohortResponse }) {
  const translate = useTranslate();
  const longest = Math.max(1, ...data.cohorts.map((c) => c.retained.length));
  const figure = kind === 'paying' ? 'cohort_paying' : 'cohort_active';
  const headers = [
    translate('revenue.cohorts.cohort'),
    translate('revenue.cohorts.size'),
    ...Array.from({ length: longest }, (_, n) => translate('revenue.cohorts.month_n', { n })),
  ];
  const rows = data.cohorts.map((cohort): FigureCell[] => [
    { text: periodLabel(cohort.start, 'month'), csv: cohort.start },
    { text: String(cohort.size), csv: cohort.size, to: clientsBehind('cohort_paying', cohort.start, cohort.start) },
    ...Array.from({ length: longest }, (_, n): FigureCell => {
      if (n >= cohort.retained.length) return { text: '', csv: '' };
      const value = cohort.retained[n]!;
      const share = cohort.size === 0 ? 0 : value / cohort.size;
      const text = cohort.size === 0 ? String(value) : `${value} (${Math.round(share * 100)} %)`;
      return { text, csv: value, shade: share, to: value > 0 ? clientsBehind(figure, cohort.start, monthAfter(cohort.start, n)) : undefined };
    }),
  ]);
  return (
    <FigureSection
      title={translate(`revenue.cohorts.${kind}_title`)}
      note={translate(`revenue.cohorts.${kind}_note`)}
      file={`revenue-cohorts-${kind}`}
      headers={headers}
      rows={rows}
    />
  );
}
