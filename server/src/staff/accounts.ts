import { ROLE_PERMISSIONS, type Role } from '@contract/permissions';
import type { Queryable } from '../db/client';
import { generatedAvatar, nicknameFromEmail } from './avatar';
import { hashPassword, randomPassword } from './password';
import { countStaff, findStaffByEmail, insertStaffUser, makeActiveOwner, updateStaffProfile, type StaffUser } from './queries';

export function publicProfile(user: StaffUser) {
  return {
    picture: user.picture || generatedAvatar(user.email, user.nickname),
    nickname: user.nickname,
    email: user.email,
    role: user.role,
    permissions: [...ROLE_PERMISSIONS[user.role]],
  };
}

/**
 * Creates the staff user with `role`, or sets the password (nickname, picture) of the one with that
 * e-mail. An existing account's role changes only through `changeStaff` (the last-owner rule).
 */
export async function upsertStaffUser(
  database: Queryable,
  input: { email: string; password?: string; nickname?: string; picture?: string | null; role?: Role },
) {
  const email = input.email.trim().toLowerCase();
  const password_hash = input.password === undefined ? undefined : await hashPassword(input.password);
  const existing = await findStaffByEmail(database, email);
  if (existing) {
    const row = await updateStaffProfile(database, existing.id, {
      ...(password_hash ? { password_hash } : {}),
      ...(input.nickname ? { nickname: input.nickname } : {}),
      ...(input.picture !== undefined ? { picture: input.picture } : {}),
    });
    return { user: row!, created: false };
  }
  if (!input.role) throw new Error(`A new staff account needs a role (${email})`);
  const user = await insertStaffUser(database, {
    email,
    password_hash: password_hash ?? null,
    nickname: input.nickname ?? nicknameFromEmail(email),
    picture: input.picture ?? null,
    role: input.role,
  });
  return { user, created: true };
}

/**
 * First start: STAFF_EMAIL/STAFF_PASSWORD create or update that account, which is always an active
 * owner (the operator's way back in); with neither set and no staff at all, an admin@localhost
 * owner gets a random password, returned to be printed once.
 */
export async function ensureStaffAccount(
  database: Queryable,
  env: { STAFF_EMAIL?: string; STAFF_PASSWORD?: string },
): Promise<{ email: string; generatedPassword?: string } | null> {
  if (env.STAFF_EMAIL && env.STAFF_PASSWORD) {
    const { user } = await upsertStaffUser(database, { email: env.STAFF_EMAIL, password: env.STAFF_PASSWORD, role: 'owner' });
    // Promoting or enabling never leaves the studio without an owner, so no lock is needed.
    if (user.role !== 'owner' || user.disabled_at) await makeActiveOwner(database, user.id);
    return { email: env.STAFF_EMAIL.toLowerCase() };
  }
  if ((await countStaff(database)) > 0) return null;
  const password = randomPassword();
  await upsertStaffUser(database, { email: 'admin@localhost', password, nickname: 'admin', role: 'owner' });
  return { email: 'admin@localhost', generatedPassword: password };
}
