import type { AutomationField, AutomationTypeSettings } from '@contract/automation';

/** '10, 50,100' → [10, 50, 100]; undefined when any part is not a positive whole number. */
export function parseMilestones(text: string): number[] | undefined {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.some((part) => !/^\d{1,6}$/.test(part) || Number(part) < 1)) return undefined;
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

export const formatMilestones = (milestones: number[]) => milestones.join(', ');

/** Only the fields that differ from what is stored: the server keeps everything else as it is. */
export function changedFields<T extends Record<string, unknown>>(stored: T, edited: T): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(edited) as (keyof T)[]) {
    if (JSON.stringify(stored[key]) !== JSON.stringify(edited[key])) changed[key] = edited[key];
  }
  return changed;
}

/** Skip reasons with their counts, most frequent first: [['daily_cap', 3], ['no_token', 1]]. */
export const skippedEntries = (skipped: Record<string, number>) => Object.entries(skipped).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));

export const skippedTotal = (skipped: Record<string, number>) => Object.values(skipped).reduce((sum, n) => sum + n, 0);

/** The settings a type shows after 'active' (which has its own switch). */
export const editableFields = (fields: AutomationField[]) => fields.filter((field): field is Exclude<AutomationField, 'active'> => field !== 'active');

export type EditableSettings = Omit<AutomationTypeSettings, 'active'>;
