import { COHORT_FIGURES, POINT_FIGURES, REVENUE_FIGURES, type RevenueFigure } from '@contract/revenueRules';

type Translate = (key: string, options?: Record<string, unknown>) => string;

const DAY_MS = 86_400_000;
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const instant = (value: string) => Date.parse(isDay(value) ? `${value}T00:00:00Z` : value);
const utc = (ms: number, options: Intl.DateTimeFormatOptions) => new Date(ms).toLocaleDateString('en-US', { ...options, timeZone: 'UTC' });
const monthWords = (ms: number) => utc(ms, { month: 'long', year: 'numeric' });
const dayWords = (ms: number) => utc(ms, { month: 'short', day: 'numeric', year: 'numeric' });
const nextMonth = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};
const isMonthStart = (ms: number) => new Date(ms).getUTCDate() === 1 && ms % DAY_MS === 0;

/** [from, to) in words: 'in October 2026', 'on Oct 5, 2026', 'in the week of Oct 5, 2026', or 'from Oct 5, 2026 to Nov 3, 2026'. */
export function rangeWords(from: string, to: string, translate: Translate): string {
  const start = instant(from);
  const end = instant(to);
  if (isMonthStart(start) && end === nextMonth(start)) return translate('revenue.figure_words.month', { month: monthWords(start) });
  if (start % DAY_MS === 0 && end - start === DAY_MS) return translate('revenue.figure_words.day', { day: dayWords(start) });
  if (start % DAY_MS === 0 && end - start === 7 * DAY_MS && new Date(start).getUTCDay() === 1)
    return translate('revenue.figure_words.week', { day: dayWords(start) });
  const last = end % DAY_MS === 0 ? end - DAY_MS : end;
  return translate('revenue.figure_words.range', { from: dayWords(start), to: dayWords(last) });
}

/**
 * The clients behind a Revenue figure in words, as the list's filter chip and a segment's description
 * say it: 'Churned in October 2026', 'Paying on Nov 22, 2026', 'First paid in September 2026, paying
 * in November 2026'. Null when the filter names no figure.
 */
export function revenueFilterWords(filter: Record<string, unknown>, translate: Translate): string | null {
  const figure = filter.revenue_figure;
  const from = typeof filter.revenue_from === 'string' ? filter.revenue_from : '';
  const to = typeof filter.revenue_to === 'string' ? filter.revenue_to : '';
  if (typeof figure !== 'string' || !(REVENUE_FIGURES as readonly string[]).includes(figure) || !from || Number.isNaN(instant(from))) return null;
  const key = `revenue.figure_words.${figure}`;
  if (POINT_FIGURES.includes(figure as RevenueFigure)) {
    const at = instant(from);
    const moment = isDay(from) ? dayWords(at) : `${dayWords(at)}, ${new Date(at).toISOString().slice(11, 16)} UTC`;
    return translate(key, { moment });
  }
  if (!to || Number.isNaN(instant(to))) return null;
  if (COHORT_FIGURES.includes(figure as RevenueFigure)) return translate(key, { cohort: monthWords(instant(from)), month: monthWords(instant(to)) });
  return translate(key, { period: rangeWords(from, to, translate) });
}
