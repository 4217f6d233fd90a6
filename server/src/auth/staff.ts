import { eq, sql } from 'drizzle-orm';
import { ROLE_PERMISSIONS, type Role } from '@contract/permissions';
import type { Db } from '../db/client';
import { staffUsers } from '../db/schema';
import { generatedAvatar, nicknameFromEmail } from './avatar';
import { hashPassword, randomPassword } from './password';

export type StaffUser = typeof staffUsers.$inferSelect;

export function publicProfile(user: StaffUser) {
  return {
    picture: user.picture || generatedAvatar(user.email, user.nickname),
    nickname: user.nickname,
    email: user.email,
    role: user.role,
    permissions: [...ROLE_PERMISSIONS[user.role]],
  };
}

export async function findStaffByEmail(db: Db, email: string): Promise<StaffUser | undefined> {
  const [row] = await db
    .select()
    .from(staffUsers)
    .where(sql`lower(${staffUsers.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findStaffById(db: Db, id: number): Promise<StaffUser | undefined> {
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, id)).limit(1);
  return row;
}

/**
 * Creates the staff user with `role`, or sets the password (nickname, picture) of the one with that
 * e-mail. An existing account's role changes only through `changeStaff` (the last-owner rule).
 */
export async function upsertStaffUser(db: Db, input: { email: string; password?: string; nickname?: string; picture?: string | null; role?: Role }) {
  const email = input.email.trim().toLowerCase();
  const password_hash = input.password === undefined ? undefined : await hashPassword(input.password);
  const existing = await findStaffByEmail(db, email);
  if (existing) {
    const [row] = await db
      .update(staffUsers)
      .set({
        ...(password_hash ? { password_hash } : {}),
        ...(input.nickname ? { nickname: input.nickname } : {}),
        ...(input.picture !== undefined ? { picture: input.picture } : {}),
      })
      .where(eq(staffUsers.id, existing.id))
      .returning();
    return { user: row!, created: false };
  }
  if (!input.role) throw new Error(`A new staff account needs a role (${email})`);
  const [row] = await db
    .insert(staffUsers)
    .values({
      email,
      password_hash: password_hash ?? null,
      nickname: input.nickname ?? nicknameFromEmail(email),
      picture: input.picture ?? null,
      role: input.role,
    })
    .returning();
  return { user: row!, created: true };
}

export async function listStaffUsers(db: Db) {
  return db.select().from(staffUsers).orderBy(staffUsers.email);
}

/**
 * First start: STAFF_EMAIL/STAFF_PASSWORD create or update that account, which is always an active
 * owner (the operator's way back in); with neither set and no staff at all, an admin@localhost
 * owner gets a random password, returned to be printed once.
 */
export async function ensureStaffAccount(
  db: Db,
  env: { STAFF_EMAIL?: string; STAFF_PASSWORD?: string },
): Promise<{ email: string; generatedPassword?: string } | null> {
  if (env.STAFF_EMAIL && env.STAFF_PASSWORD) {
    const { user } = await upsertStaffUser(db, { email: env.STAFF_EMAIL, password: env.STAFF_PASSWORD, role: 'owner' });
    // Promoting or enabling never leaves the studio without an owner, so no lock is needed.
    if (user.role !== 'owner' || user.disabled_at) await db.update(staffUsers).set({ role: 'owner', disabled_at: null }).where(eq(staffUsers.id, user.id));
    return { email: env.STAFF_EMAIL.toLowerCase() };
  }
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(staffUsers);
  if (count > 0) return null;
  const password = randomPassword();
  await upsertStaffUser(db, { email: 'admin@localhost', password, nickname: 'admin', role: 'owner' });
  return { email: 'admin@localhost', generatedPassword: password };
}
