import type { AuditEntry } from '@contract/audit';

export interface ChangeLine {
  field: string;
  before?: string;
  after?: string;
}

/** How the log names values: levels by name, yes/no, dates in the console's one format. */
export interface ValueNames {
  yes: string;
  no: string;
  /** A video's access level id (1-3) by name. */
  videoLevel: (id: number) => string | undefined;
  /** A client's VOD access level (the level's sort_order) by name. */
  clientLevel: (sortOrder: number) => string | undefined;
  dateTime: (iso: string) => string;
  date: (isoDay: string) => string;
  /** A User-Agent header as 'Chrome on Linux'. */
  browser: (userAgent: string) => string;
  /** A saved client filter (a segment's, a broadcast's) in words. */
  filter?: (filter: Record<string, unknown>) => string;
  /** A field's name in words, for the parts of a stored object. */
  field?: (field: string) => string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const VIDEO_LEVEL_FIELDS = new Set(['access_level_id']);
const CLIENT_LEVEL_FIELDS = new Set(['vod_access_level', 'new_vod_access_level', 'level', 'replaced_level', 'app_access_level_id']);
const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A stored value as staff read it: nothing as '—', levels and dates by name, lists joined, filters and other objects in words. */
export const formatValue = (value: unknown, field = '', names?: ValueNames): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (names) {
    if (typeof value === 'boolean') return value ? names.yes : names.no;
    if (typeof value === 'number' && VIDEO_LEVEL_FIELDS.has(field)) return names.videoLevel(value) ?? String(value);
    if (typeof value === 'number' && CLIENT_LEVEL_FIELDS.has(field)) return names.clientLevel(value) ?? String(value);
    if (typeof value === 'string' && field === 'user_agent') return names.browser(value);
    if (typeof value === 'string' && MOMENT.test(value)) return names.dateTime(value);
    if (typeof value === 'string' && DAY.test(value)) return names.date(value);
    if (Array.isArray(value)) return value.map((item) => formatValue(item, field, names)).join(', ');
    if (isPlainObject(value) && field === 'filter' && names.filter) return names.filter(value);
    // Any other stored object reads as its parts in words ('Favorites: 2; Pushes: 1'), never as JSON.
    if (isPlainObject(value)) {
      const parts = Object.entries(value).map(([key, part]) => `${names.field?.(key) ?? humanizeField(key)}: ${formatValue(part, key, names)}`);
      return parts.length ? parts.join('; ') : '—';
    }
  }
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
};

/** 'delay_minutes' → 'Delay minutes': the fallback for a field the messages file does not name. */
export const humanizeField = (field: string) => {
  const words = field.replace(/_id$/, '').replace(/[_.]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : field;
};

/**
 * What changed, one line per field: both sides for an edit, only `after` for something created,
 * only `before` for something removed.
 */
export function changeLines(entry: Pick<AuditEntry, 'before' | 'after'>, names?: ValueNames): ChangeLine[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.map((field) => ({
    field,
    ...(entry.before ? { before: formatValue(before[field], field, names) } : {}),
    ...(entry.after ? { after: formatValue(after[field], field, names) } : {}),
  }));
}

/** One line of text per change, for the places without colours (tooltips, screen readers). */
export const changeText = (line: ChangeLine, label = line.field) =>
  line.before !== undefined && line.after !== undefined ? `${label}: ${line.before} → ${line.after}` : `${label}: ${line.after ?? line.before}`;

const KNOWN_TARGETS = ['message', 'video', 'client', 'session', 'staff_user', 'vimeo_sync', 'mindbody_sync', 'route', 'message_type'];

/** The translation key and values naming an entry's target ('Video #12'). */
export function targetMessage(entry: Pick<AuditEntry, 'target_type' | 'target_id'>): [string, Record<string, unknown>] {
  if (KNOWN_TARGETS.includes(entry.target_type)) return [`audit.targets.${entry.target_type}`, { id: entry.target_id ?? '' }];
  return ['audit.targets.other', { type: humanizeField(entry.target_type), id: entry.target_id ?? '' }];
}
