import { z } from 'zod';
import { timestamp } from '../db/rows';
import { ROLES } from '@contract/permissions';
import type { Queryable, Transaction } from '../db/client';

/** A staff account as stored. */
export const StaffUserRow = z.object({
  id: z.number(),
  email: z.string(),
  password_hash: z.string().nullable(),
  nickname: z.string(),
  picture: z.string().nullable(),
  oidc_subject: z.string().nullable(),
  created_at: timestamp,
  last_sign_in_at: timestamp.nullable(),
  device_token: z.string().nullable(),
  role: z.enum(ROLES),
  disabled_at: timestamp.nullable(),
  two_step_at: timestamp.nullable(),
});
export type StaffUser = z.infer<typeof StaffUserRow>;

const COLUMNS = 'id, email, password_hash, nickname, picture, oidc_subject, created_at, last_sign_in_at, device_token, role, disabled_at, two_step_at';
const Count = z.object({ count: z.number() });
const Id = z.object({ id: z.number() });
const PasswordHash = z.object({ hash: z.string().nullable() });

export async function findStaffByEmail(database: Queryable, email: string): Promise<StaffUser | undefined> {
  const [row] = await database.rows(StaffUserRow, `SELECT ${COLUMNS} FROM staff_users WHERE lower(email) = $1 LIMIT 1`, [email.trim().toLowerCase()]);
  return row;
}

export async function findStaffById(database: Queryable, id: number): Promise<StaffUser | undefined> {
  const [row] = await database.rows(StaffUserRow, `SELECT ${COLUMNS} FROM staff_users WHERE id = $1 LIMIT 1`, [id]);
  return row;
}

export function listStaffUsers(database: Queryable): Promise<StaffUser[]> {
  return database.rows(StaffUserRow, `SELECT ${COLUMNS} FROM staff_users ORDER BY email`);
}

export async function countStaff(database: Queryable): Promise<number> {
  const [row] = await database.rows(Count, 'SELECT count(*)::int AS count FROM staff_users');
  return row!.count;
}

/** Sets whichever of the password hash, nickname and picture are given; the account after. */
export async function updateStaffProfile(
  database: Queryable,
  id: number,
  fields: { password_hash?: string; nickname?: string; picture?: string | null },
): Promise<StaffUser | undefined> {
  const [row] = await database.rows(
    StaffUserRow,
    `UPDATE staff_users SET
       password_hash = CASE WHEN $2::boolean THEN $3 ELSE password_hash END,
       nickname = CASE WHEN $4::boolean THEN $5 ELSE nickname END,
       picture = CASE WHEN $6::boolean THEN $7 ELSE picture END
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [
      id,
      fields.password_hash !== undefined,
      fields.password_hash ?? null,
      fields.nickname !== undefined,
      fields.nickname ?? null,
      fields.picture !== undefined,
      fields.picture ?? null,
    ],
  );
  return row;
}

export async function insertStaffUser(
  database: Queryable,
  user: { email: string; password_hash: string | null; nickname: string; picture?: string | null; role: StaffUser['role'] },
): Promise<StaffUser> {
  const [row] = await database.rows(
    StaffUserRow,
    `INSERT INTO staff_users (email, password_hash, nickname, picture, role) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [user.email, user.password_hash, user.nickname, user.picture ?? null, user.role],
  );
  return row!;
}

/** The operator's account is always an active owner. */
export function makeActiveOwner(database: Queryable, id: number): Promise<void> {
  return database.execute("UPDATE staff_users SET role = 'owner', disabled_at = NULL WHERE id = $1", [id]);
}

export function setOidcSubject(database: Queryable, id: number, subject: string): Promise<void> {
  return database.execute('UPDATE staff_users SET oidc_subject = $2 WHERE id = $1', [id, subject]);
}

export async function passwordHashOf(database: Queryable, id: number): Promise<string | null | undefined> {
  const [row] = await database.rows(PasswordHash, 'SELECT password_hash AS hash FROM staff_users WHERE id = $1', [id]);
  return row?.hash;
}

/** The account after its new password; undefined when there is no such account. */
export async function setPasswordHash(database: Queryable, id: number, passwordHash: string): Promise<StaffUser | undefined> {
  const [row] = await database.rows(StaffUserRow, `UPDATE staff_users SET password_hash = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [id, passwordHash]);
  return row;
}

export async function setRoleAndDisabled(tx: Transaction, id: number, role: StaffUser['role'], disabledAt: Date | null): Promise<StaffUser> {
  const [row] = await tx.rows(StaffUserRow, `UPDATE staff_users SET role = $2, disabled_at = $3 WHERE id = $1 RETURNING ${COLUMNS}`, [id, role, disabledAt]);
  return row!;
}

export function deleteStaffUser(tx: Transaction, id: number): Promise<void> {
  return tx.execute('DELETE FROM staff_users WHERE id = $1', [id]);
}

/** Deletes every session of the account; how many there were. */
export async function deleteSessionsOf(tx: Transaction, staffUserId: number): Promise<number> {
  return (await tx.rows(Id, 'DELETE FROM sessions WHERE staff_user_id = $1 RETURNING 1 AS id', [staffUserId])).length;
}

/** The account, locked until the transaction ends. */
export async function lockStaffUser(tx: Transaction, id: number): Promise<StaffUser | undefined> {
  const [row] = await tx.rows(StaffUserRow, `SELECT ${COLUMNS} FROM staff_users WHERE id = $1 FOR UPDATE`, [id]);
  return row;
}

/**
 * Takes the lock that serialises every change that could take away an owner, then the target
 * (locked) and how many other active owners there are.
 */
export async function lockForStaffChange(
  tx: Transaction,
  lock: number,
  targetId: number,
): Promise<{ target: StaffUser | undefined; otherActiveOwners: number }> {
  await tx.execute('SELECT pg_advisory_xact_lock($1)', [lock]);
  const target = await lockStaffUser(tx, targetId);
  const [others] = await tx.rows(Count, "SELECT count(*)::int AS count FROM staff_users WHERE role = 'owner' AND disabled_at IS NULL AND id <> $1", [targetId]);
  return { target, otherActiveOwners: others!.count };
}
