import { z } from 'zod';
import type { Queryable } from '../db/client';

const SettingsRow = z.object({ settings: z.record(z.string(), z.unknown()) });
const ValueRow = z.object({ value: z.string() });

/** One type's stored settings (only what staff changed), or undefined. */
export async function storedTypeSettings(database: Queryable, messageType: number): Promise<Record<string, unknown> | undefined> {
  const [row] = await database.rows(SettingsRow, 'SELECT settings FROM automation_settings WHERE message_type = $1', [messageType]);
  return row?.settings;
}

export async function storeTypeSettings(database: Queryable, messageType: number, settings: object, now: Date, staffEmail: string | null): Promise<void> {
  await database.execute(
    `INSERT INTO automation_settings (message_type, settings, updated_at, updated_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (message_type) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
    [messageType, JSON.stringify(settings), now.toISOString(), staffEmail],
  );
}

/** An app_settings value, or undefined. */
export async function appSetting(database: Queryable, key: string): Promise<string | undefined> {
  const [row] = await database.rows(ValueRow, 'SELECT value FROM app_settings WHERE key = $1', [key]);
  return row?.value;
}

export async function storeAppSetting(database: Queryable, key: string, value: string): Promise<void> {
  await database.execute('INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [key, value]);
}

/** Stores `value` unless the key has one already. */
export async function storeAppSettingOnce(database: Queryable, key: string, value: string): Promise<void> {
  await database.execute('INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]);
}
