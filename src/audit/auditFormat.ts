import type { AuditEntry } from '../../contract/audit';

export interface ChangeLine {
  field: string;
  before?: string;
  after?: string;
}

/** A stored value as staff read it: text as is, nothing as '—', everything else as JSON. */
export const formatValue = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
};

/**
 * What changed, one line per field: both sides for an edit, only `after` for something created,
 * only `before` for something removed.
 */
export function changeLines(entry: Pick<AuditEntry, 'before' | 'after'>): ChangeLine[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.map((field) => ({
    field,
    ...(entry.before ? { before: formatValue(before[field]) } : {}),
    ...(entry.after ? { after: formatValue(after[field]) } : {}),
  }));
}

/** One line of text per change, for the CSV-free places (tooltips, screen readers). */
export const changeText = (line: ChangeLine) =>
  line.before !== undefined && line.after !== undefined
    ? `${line.field}: ${line.before} → ${line.after}`
    : `${line.field}: ${line.after ?? line.before}`;

const KNOWN_TARGETS = ['message', 'video', 'client', 'session', 'staff_user', 'vimeo_sync', 'mindbody_sync'];

/** The translation key and values naming an entry's target ('Video #12'). */
export function targetMessage(entry: Pick<AuditEntry, 'target_type' | 'target_id'>): [string, Record<string, unknown>] {
  if (KNOWN_TARGETS.includes(entry.target_type)) return [`audit.targets.${entry.target_type}`, { id: entry.target_id ?? '' }];
  return ['audit.targets.other', { type: entry.target_type, id: entry.target_id ?? '' }];
}
