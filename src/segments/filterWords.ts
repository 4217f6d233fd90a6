import type { ClientFilter } from '@contract/clientFilterRules';
import { revenueFilterWords } from '../clients/revenueFilterWords';

type Translate = (key: string, options?: Record<string, unknown>) => string;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The order conditions are read in, whatever order the stored JSON keeps its keys in (jsonb sorts them). */
const ORDER = [
  'q',
  'status',
  'vod_access_level',
  'new',
  'mindbody',
  'override_running',
  'override_ends_within_days',
  'tag',
  'last_activity_days',
  'last_class_days',
  'no_class_days',
  'last_stream_days',
  'no_stream_days',
  'app_installed',
  'opted_out',
  'snoozed',
];
const rank = (key: string) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length);
const DAY_KEYS = ['last_class_days', 'no_class_days', 'last_stream_days', 'no_stream_days', 'last_activity_days', 'override_ends_within_days'] as const;
const YES_NO_KEYS = ['new', 'mindbody', 'override_running', 'app_installed', 'opted_out', 'snoozed'] as const;

/**
 * A client filter in words, one part per condition, for the audit log and anywhere a filter is read
 * rather than edited: 'A class within the last 30 days; App: installed'. `levelName` names an access
 * level by its sort_order; keys it does not know read as 'Key: value' rather than as JSON.
 */
export function describeClientFilter(filter: Record<string, unknown>, translate: Translate, levelName: (sortOrder: number) => string | undefined): string {
  const t = (key: string, options?: Record<string, unknown>) => translate(`segments.filter_words.${key}`, options);
  const list = (value: unknown) => (Array.isArray(value) ? value : [value]).map(String).join(', ');
  const entries = Object.entries(filter as ClientFilter & Record<string, unknown>).sort(([a], [b]) => rank(a) - rank(b));
  const parts = entries.flatMap(([key, value]): string[] => {
    if (value === undefined || value === null) return [];
    // A Revenue figure is one condition in three keys: said once, by its figure.
    if (key === 'revenue_from' || key === 'revenue_to') return [];
    if (key === 'revenue_figure') {
      const words = revenueFilterWords(filter, translate);
      if (words) return [words];
    }
    if ((DAY_KEYS as readonly string[]).includes(key) && typeof value === 'number') return [t(key, { smart_count: value })];
    if ((YES_NO_KEYS as readonly string[]).includes(key) && typeof value === 'boolean') return [t(`${key}_${value ? 'yes' : 'no'}`)];
    if (key === 'q') return [t('q', { value: String(value) })];
    if (key === 'status') return [t('status', { value: list(value) })];
    if (key === 'tag') return [t('tag', { value: list(value) })];
    if (key === 'vod_access_level') {
      const levels = (Array.isArray(value) ? value : [value]).map((level) =>
        Number(level) === 0 ? t('no_level') : (levelName(Number(level)) ?? String(level)),
      );
      return [t('vod_access_level', { value: levels.join(', ') })];
    }
    const words = isRecord(value)
      ? Object.entries(value)
          .map(([part, inner]) => `${part}: ${String(inner)}`)
          .join(', ')
      : list(value);
    return [`${key.replace(/_/g, ' ')}: ${words}`];
  });
  return parts.length ? parts.join('; ') : t('all');
}
