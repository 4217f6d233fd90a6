import type { StatsResponse } from '@contract/stats';

export const STAT_KEYS = ['subscribers', 'daily_plays', 'most_popular'] as const;

/** The paid access levels' sort_order (access_levels.is_paid: BASIC and PREMIUM, migration 0001): who the subscribers card counts. */
export const PAID_LEVELS = [2, 3] as const;
/** The daily plays card opens the videos by their plays over the 30 days. */
export const VIDEO_PLAYS_PATH = '/videos?sort=plays_30d&order=DESC';
/** The most popular category's videos with their plays (the videos by plays when the category is not known). */
export const categoryVideosPath = (categoryId: number | undefined) =>
  categoryId === undefined ? VIDEO_PLAYS_PATH : `/videos?filter=${encodeURIComponent(JSON.stringify({ category_id: categoryId }))}&sort=plays_30d&order=DESC`;
/** The subscribers card opens the paid clients (a filtered client list). */
export const PAID_CLIENTS_PATH = `/clients/all?filter=${encodeURIComponent(JSON.stringify({ vod_access_level: PAID_LEVELS }))}`;
export type StatKey = (typeof STAT_KEYS)[number];

export type CardState = { state: 'loading' } | { state: 'loaded'; value: number | string } | { state: 'failed'; reason?: string };

/**
 * The cards start loading (placeholders and a spinner) until stats arrive. Ours, so a
 * failure never passes for a figure: once the call failed every card says it could not be
 * computed, and a figure the answer's `errors` names says so with the server's reason, while
 * the figures it did compute show.
 */
export function cardsState(stats: { data: StatsResponse | undefined; error: unknown }): Record<StatKey, CardState> {
  const state = (key: StatKey): CardState => {
    if (stats.error) return { state: 'failed' };
    if (!stats.data) return { state: 'loading' };
    const problem = stats.data.errors.find((error) => error.figure === key);
    if (problem) return { state: 'failed', reason: problem.message };
    const value = stats.data.result[key];
    return value === null ? { state: 'failed' } : { state: 'loaded', value };
  };
  return { subscribers: state('subscribers'), daily_plays: state('daily_plays'), most_popular: state('most_popular') };
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Numbers with thousands separators (71,887); text as it is. */
export function formatStat(value: number | string): string {
  return typeof value === 'number' ? numberFormat.format(value) : value;
}
