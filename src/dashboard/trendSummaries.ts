import type { DailyPlaysPoint, PaidSubscribersPoint } from '@contract/stats';
import { shortDate } from './charts/chartScale';
import { formatStat } from './statsRules';

/** Figures a screen reader hears instead of the plays chart; the average matches the card's rule. */
export function playsSummary(points: DailyPlaysPoint[]) {
  const total = points.reduce((sum, p) => sum + p.plays, 0);
  const average = points.length ? Math.round(total / points.length) : 0;
  const peak = points.reduce<DailyPlaysPoint | undefined>((best, p) => (!best || p.plays > best.plays ? p : best), undefined);
  return {
    average,
    texts: {
      total: formatStat(total),
      average: formatStat(average),
      from: points[0] ? shortDate(points[0].day) : '',
      to: points.length ? shortDate(points[points.length - 1]!.day) : '',
      peakDay: peak ? shortDate(peak.day) : '',
      peak: formatStat(peak?.plays ?? 0),
    },
  };
}

export function subscribersSummary(points: PaidSubscribersPoint[]) {
  const first = points[0];
  const last = points[points.length - 1];
  return {
    first: formatStat(first?.subscribers ?? 0),
    from: first ? shortDate(first.at) : '',
    last: formatStat(last?.subscribers ?? 0),
  };
}
