import type { StatsResponse } from '../../contract/stats';

export const STAT_KEYS = ['subscribers', 'daily_plays', 'most_popular'] as const;
export type StatKey = (typeof STAT_KEYS)[number];

export type CardsState = { loading: true } | { loading: false; values: Record<StatKey, number | string> };

/**
 * Spec §4: the cards start loading and turn loaded only when stats arrive with an empty errors list;
 * with errors (or before any answer, or after a failed call) they stay loading, showing the placeholders.
 */
export function cardsState(stats: StatsResponse | undefined): CardsState {
  if (!stats || stats.errors.length > 0) return { loading: true };
  const { subscribers, daily_plays, most_popular } = stats.result;
  if (subscribers === null || daily_plays === null || most_popular === null) return { loading: true };
  return { loading: false, values: { subscribers, daily_plays, most_popular } };
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Numbers with thousands separators (71,887); text as it is. */
export function formatStat(value: number | string): string {
  return typeof value === 'number' ? numberFormat.format(value) : value;
}
