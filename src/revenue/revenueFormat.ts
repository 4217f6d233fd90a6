import { csvLine } from '@contract/csv';
import { nextPeriod, type Interval, type RevenueFigure } from '@contract/revenueRules';

/** A dollar amount as staff read it: '$1,234.50'. */
export const usd = (value: number) => value.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
/** An amount in another currency: '€9.17'; an unknown code as '9.17 XYZ'. */
export function money(value: number, currency: string) {
  try {
    return value.toLocaleString('en-US', { style: 'currency', currency });
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** A period's label: 'Oct 2026', 'Oct 5', by its interval. */
export function periodLabel(start: string, interval: Interval) {
  const date = new Date(`${start}T00:00:00Z`);
  if (interval === 'month') return date.toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The client list of exactly the clients behind a figure (docs/revenue.md#the-clients-behind-a-figure). */
export function clientsBehind(figure: RevenueFigure, from: string, to?: string) {
  const filter: Record<string, string> = { revenue_figure: figure, revenue_from: from };
  if (to) filter.revenue_to = to;
  return `/clients/all?filter=${encodeURIComponent(JSON.stringify(filter))}`;
}

/** The clients behind a figure of the period starting at `start`. */
export const periodClients = (figure: RevenueFigure, start: string, interval: Interval) => clientsBehind(figure, start, nextPeriod(start, interval));

/** A table as CSV, through the one CSV writer. */
export const toCsv = (headers: string[], rows: (string | number)[][]) => [headers, ...rows].map(csvLine).join('\r\n');
