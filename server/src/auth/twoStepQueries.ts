import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable, Transaction } from '../db/client';

const TotpRow = z.object({
  staff_user_id: z.number(),
  secret: z.string(),
  created_at: timestamp,
  confirmed_at: timestamp.nullable(),
  last_used_step: z.number().nullable(),
});
const TOTP_COLUMNS = 'staff_user_id, secret, created_at, confirmed_at, last_used_step';
const Id = z.object({ id: z.number() });
const Left = z.object({ left: z.number() });
const Setting = z.object({ key: z.string(), value: z.string() });

/** Marks an unused recovery code of the account used; whether there was one. */
export async function spendRecoveryCode(database: Queryable, staffUserId: number, codeHash: string, at: Date): Promise<boolean> {
  const used = await database.rows(
    Id,
    'UPDATE staff_recovery_codes SET used_at = $3 WHERE staff_user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id',
    [staffUserId, codeHash, at],
  );
  return used.length > 0;
}

export async function recoveryCodesLeft(database: Queryable, staffUserId: number): Promise<number> {
  const [row] = await database.rows(Left, 'SELECT count(*)::int AS left FROM staff_recovery_codes WHERE staff_user_id = $1 AND used_at IS NULL', [staffUserId]);
  return row!.left;
}

export async function confirmedTotp(database: Queryable, staffUserId: number): Promise<z.infer<typeof TotpRow> | undefined> {
  const [row] = await database.rows(TotpRow, `SELECT ${TOTP_COLUMNS} FROM staff_totp WHERE staff_user_id = $1 AND confirmed_at IS NOT NULL`, [staffUserId]);
  return row;
}

/** Records the step a code was accepted for, only if no code of it or a later step was; whether it did. */
export async function claimTotpStep(database: Queryable, staffUserId: number, step: number): Promise<boolean> {
  const claimed = await database.rows(
    Id,
    'UPDATE staff_totp SET last_used_step = $2 WHERE staff_user_id = $1 AND (last_used_step IS NULL OR last_used_step < $2) RETURNING staff_user_id AS id',
    [staffUserId, step],
  );
  return claimed.length > 0;
}

/** A new secret to confirm, replacing one not confirmed yet. */
export function upsertTotpSecret(database: Queryable, staffUserId: number, secret: string, at: Date): Promise<void> {
  return database.execute(
    `INSERT INTO staff_totp (staff_user_id, secret, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (staff_user_id) DO UPDATE SET secret = $2, created_at = $3, confirmed_at = NULL, last_used_step = NULL`,
    [staffUserId, secret, at],
  );
}

export async function lockTotp(tx: Transaction, staffUserId: number): Promise<z.infer<typeof TotpRow> | undefined> {
  const [row] = await tx.rows(TotpRow, `SELECT ${TOTP_COLUMNS} FROM staff_totp WHERE staff_user_id = $1 FOR UPDATE`, [staffUserId]);
  return row;
}

/** Two-step on: the secret confirmed, the account's recovery codes replaced by `codeHashes`. */
export async function enableTotp(tx: Transaction, staffUserId: number, step: number, codeHashes: string[], at: Date): Promise<void> {
  await tx.execute('UPDATE staff_totp SET confirmed_at = $2, last_used_step = $3 WHERE staff_user_id = $1', [staffUserId, at, step]);
  await tx.execute('DELETE FROM staff_recovery_codes WHERE staff_user_id = $1', [staffUserId]);
  await tx.execute('INSERT INTO staff_recovery_codes (staff_user_id, code_hash) SELECT $1, unnest($2::text[])', [staffUserId, codeHashes]);
  await tx.execute('UPDATE staff_users SET two_step_at = $2 WHERE id = $1', [staffUserId, at]);
}

/** Two-step off: the secret and the recovery codes go. */
export async function disableTwoStep(tx: Transaction, staffUserId: number): Promise<void> {
  await tx.execute('DELETE FROM staff_totp WHERE staff_user_id = $1', [staffUserId]);
  await tx.execute('DELETE FROM staff_recovery_codes WHERE staff_user_id = $1', [staffUserId]);
  await tx.execute('UPDATE staff_users SET two_step_at = NULL WHERE id = $1', [staffUserId]);
}

export async function appSetting(database: Queryable, key: string): Promise<string | undefined> {
  const [row] = await database.rows(Setting, 'SELECT key, value FROM app_settings WHERE key = $1', [key]);
  return row?.value;
}

export function setAppSetting(tx: Transaction, key: string, value: string): Promise<void> {
  return tx.execute('INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2', [key, value]);
}
