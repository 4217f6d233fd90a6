import { AutomationGlobalSettings, AutomationTypeSettings, type UpdateAutomationSettingsRequest } from '@contract/automation';
import { GOAL_WINDOW_DEFAULT_DAYS } from '@contract/outcomeRules';
import type { Queryable } from '../db/client';
import { appSetting, storeAppSetting, storeAppSettingOnce, storeTypeSettings, storedTypeSettings } from './settingsQueries';

const BASE: AutomationTypeSettings = {
  active: true,
  delay_minutes: 60,
  send_time: '09:00',
  weekday: 0,
  active_days: 30,
  absence_days: 14,
  milestones: [10, 50, 100],
  goal: 'any',
  goal_window_days: GOAL_WINDOW_DEFAULT_DAYS,
  holdout_percent: 0,
};

/** Sensible defaults per type; documented in docs/automation.md. */
export const DEFAULT_TYPE_SETTINGS: Record<number, AutomationTypeSettings> = {
  1: { ...BASE, delay_minutes: 60 },
  2: { ...BASE, send_time: '09:00' },
  3: { ...BASE, weekday: 0, send_time: '18:00' },
  4: { ...BASE, weekday: 1, send_time: '08:30' },
  5: { ...BASE, delay_minutes: 30 },
  6: { ...BASE, absence_days: 14 },
};

export const DEFAULT_GLOBAL_SETTINGS: AutomationGlobalSettings = { quiet_start: '21:00', quiet_end: '08:00', daily_cap: 1 };

const GLOBAL_KEY = 'automation.global';
export const STARTED_KEY = 'automation.started_at';

/** Stored values over the defaults; a stored value that no longer validates falls back to its default. */
function merge<T extends Record<string, unknown>>(
  defaults: T,
  stored: Record<string, unknown>,
  schema: { shape: Record<string, { safeParse(v: unknown): { success: boolean } }> },
): T {
  const result: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(stored)) {
    if (key in schema.shape && schema.shape[key]!.safeParse(value).success) result[key] = value;
  }
  return result as T;
}

export async function loadTypeSettings(database: Queryable, messageType: number): Promise<AutomationTypeSettings> {
  const stored = await storedTypeSettings(database, messageType);
  const settings = merge(DEFAULT_TYPE_SETTINGS[messageType]!, stored ?? {}, AutomationTypeSettings);
  // Monday Morning is Monday by definition.
  if (messageType === 4) settings.weekday = 1;
  return settings;
}

export async function loadAllTypeSettings(database: Queryable): Promise<Map<number, AutomationTypeSettings>> {
  const result = new Map<number, AutomationTypeSettings>();
  for (const type of [1, 2, 3, 4, 5, 6]) result.set(type, await loadTypeSettings(database, type));
  return result;
}

export async function loadGlobalSettings(database: Queryable): Promise<AutomationGlobalSettings> {
  const value = await appSetting(database, GLOBAL_KEY);
  let stored: Record<string, unknown> = {};
  try {
    stored = value !== undefined ? (JSON.parse(value) as Record<string, unknown>) : {};
  } catch {
    stored = {};
  }
  return merge(DEFAULT_GLOBAL_SETTINGS, stored, AutomationGlobalSettings);
}

export async function saveSettings(
  database: Queryable,
  messageType: number,
  update: UpdateAutomationSettingsRequest,
  now: Date,
  staffEmail: string | null,
): Promise<void> {
  if (update.settings && Object.keys(update.settings).length > 0) {
    const current = await loadTypeSettings(database, messageType);
    const next = { ...current, ...update.settings };
    await storeTypeSettings(database, messageType, next, now, staffEmail);
  }
  if (update.global && Object.keys(update.global).length > 0) {
    const next = { ...(await loadGlobalSettings(database)), ...update.global };
    await storeAppSetting(database, GLOBAL_KEY, JSON.stringify(next));
  }
}

/**
 * When automated sending began on this database. Events before it are history and never sent, so
 * the first start does not message every client about last week's classes.
 */
export async function automationStartedAt(database: Queryable, now: Date): Promise<Date> {
  await storeAppSettingOnce(database, STARTED_KEY, now.toISOString());
  return new Date((await appSetting(database, STARTED_KEY))!);
}
